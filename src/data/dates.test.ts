// Date parsers: the two datasets' formats, stored as wall-clock `…Z` ISO times.
import { describe, expect, it } from 'vitest';
import { parseLocomoDate, parseLongMemEvalDate } from './dates.ts';

describe('dates', () => {
  it('parses LongMemEval times', () => {
    expect(parseLongMemEvalDate('2023/05/30 (Tue) 23:40')).toBe('2023-05-30T23:40:00Z');
    expect(parseLongMemEvalDate('2021/05/03 (Mon) 00:05')).toBe('2021-05-03T00:05:00Z');
    expect(parseLongMemEvalDate('2023/02/30 (Thu) 10:00')).toBeUndefined();
    expect(parseLongMemEvalDate('2023-05-30 23:40')).toBeUndefined();
  });
  it('parses LoCoMo times (12-hour clock)', () => {
    expect(parseLocomoDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00Z');
    expect(parseLocomoDate('12:09 am on 13 September, 2023')).toBe('2023-09-13T00:09:00Z');
    expect(parseLocomoDate('12:30 pm on 1 January, 2024')).toBe('2024-01-01T12:30:00Z');
    expect(parseLocomoDate('8 May, 2023')).toBeUndefined();
    expect(parseLocomoDate('13:00 pm on 8 May, 2023')).toBeUndefined();
  });
});
