// LoCoMo's time format (dates.ts), stored as wall-clock `…Z` ISO times.
import { describe, expect, it } from 'vitest';
import { parseLocomoDate } from './dates.ts';

describe('dates', () => {
  it('parses LoCoMo times (12-hour clock)', () => {
    expect(parseLocomoDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00Z');
    expect(parseLocomoDate('12:09 am on 13 September, 2023')).toBe('2023-09-13T00:09:00Z');
    expect(parseLocomoDate('12:30 pm on 1 January, 2024')).toBe('2024-01-01T12:30:00Z');
    expect(parseLocomoDate('8 May, 2023')).toBeUndefined();
    expect(parseLocomoDate('13:00 pm on 8 May, 2023')).toBeUndefined();
  });
});
