// The QA gain over the closed-book control, by hand: on the 3 questions both answered, a method right on 3 and the
// no-memory row on 1 → 100.0% vs 33.3%, +66.7 points; a question only the method answered is left out.
import { describe, expect, it } from 'vitest';
import { noMemoryGainTable } from './no-memory-gain.ts';
import type { QaItem } from './qa-items.ts';

const item = (method: string, questionId: string, accuracy: number): QaItem => ({
  run_id: 'r',
  method,
  granularity: 'session',
  dataset: 'memdaily',
  questionId,
  nativeType: 'simple',
  adaptType: 'factual',
  counted: true,
  accuracy,
  f1: null,
  bleu1: null,
  correct: [accuracy === 1],
});

describe('noMemoryGainTable', () => {
  it('gain in points over the no-memory row on the shared questions', () => {
    const items = [
      ...['问题1', '问题2', '问题3', '问题4'].map((q) => item('bm25', q, 1)),
      item('none', '问题1', 1),
      item('none', '问题2', 0),
      item('none', '问题3', 0),
    ];
    const t = noMemoryGainTable(items, new Set(['r\tnone']), (r) => r.method)!;
    expect(t).toMatch(/│ memdaily │ bm25 +│ 100\.0% +│ 33\.3% +│ \+66\.7 +│ 3 │/);
    expect(t).not.toMatch(/│ none /);
  });

  it('null without a no-memory method', () => {
    expect(noMemoryGainTable([item('bm25', 'q', 1)], new Set(), (r) => r.method)).toBeNull();
  });
});
