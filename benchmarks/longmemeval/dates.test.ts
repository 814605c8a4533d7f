// LongMemEval's time format (dates.ts), stored as wall-clock `…Z` ISO times.
import { describe, expect, it } from 'vitest';
import { parseLongMemEvalDate } from './dates.ts';

describe('dates', () => {
  it('parses LongMemEval times', () => {
    expect(parseLongMemEvalDate('2023/05/30 (Tue) 23:40')).toBe('2023-05-30T23:40:00Z');
    expect(parseLongMemEvalDate('2021/05/03 (Mon) 00:05')).toBe('2021-05-03T00:05:00Z');
    expect(parseLongMemEvalDate('2023/02/30 (Thu) 10:00')).toBeUndefined();
    expect(parseLongMemEvalDate('2023-05-30 23:40')).toBeUndefined();
  });
});
