// Aggregation: hand-computed per-type, task-averaged, overall and abstention accuracy; repeated judging as mean ± sd;
// LoCoMo headline (categories 1–4) with adversarial apart.
import { describe, expect, it } from 'vitest';
import { meanSd, summarizeLocomo, summarizeLongMemEval } from './aggregate.ts';

describe('summarizeLongMemEval', () => {
  it('computes per-type, task-averaged, overall and abstention accuracy', () => {
    const s = summarizeLongMemEval([
      { questionId: 'a', nativeType: 'multi-session', correct: [true] },
      { questionId: 'b', nativeType: 'multi-session', correct: [false] },
      { questionId: 'c', nativeType: 'multi-session', correct: [true] },
      { questionId: 'd_abs', nativeType: 'multi-session', correct: [true] },
      { questionId: 'e', nativeType: 'temporal-reasoning', correct: [false] },
      { questionId: 'f', nativeType: 'temporal-reasoning', correct: [true] },
    ])!;
    // multi-session 3/4, temporal 1/2 → task-averaged (0.75 + 0.5)/2; overall 4/6; abstention 1/1
    expect(s.perType['multi-session']).toEqual({ mean: 0.75, sd: 0, runs: 1, n: 4 });
    expect(s.perType['temporal-reasoning']?.mean).toBe(0.5);
    expect(s.taskAveraged.mean).toBeCloseTo(0.625, 12);
    expect(s.taskAveraged.types).toBe(2);
    expect(s.overall.mean).toBeCloseTo(4 / 6, 12);
    expect(s.abstention).toEqual({ mean: 1, sd: 0, runs: 1, n: 1 });
  });

  it('reports repeated judging as mean ± sample sd over runs', () => {
    const s = summarizeLongMemEval([
      { questionId: 'a', nativeType: 'knowledge-update', correct: [true, true, false] },
      { questionId: 'b', nativeType: 'knowledge-update', correct: [true, false, false] },
    ])!;
    // per run: 1, 0.5, 0 → mean 0.5, sd = sqrt(((0.5)² + 0 + (0.5)²)/2) = 0.5
    expect(s.overall).toEqual({ mean: 0.5, sd: 0.5, runs: 3, n: 2 });
    expect(s.abstention).toBeUndefined();
  });

  it('is undefined with no questions', () => {
    expect(summarizeLongMemEval([])).toBeUndefined();
    expect(meanSd([2, 4])).toEqual({ mean: 3, sd: Math.SQRT2 });
  });
});

describe('summarizeLocomo', () => {
  it('keeps the headline to categories 1–4 and reports category 5 apart', () => {
    const s = summarizeLocomo([
      { category: 1, judge: [true], f1: 0.5, bleu1: 0.2 },
      { category: 4, judge: [false], f1: 1, bleu1: 0.4 },
      { category: 4, judge: [true], f1: 0, bleu1: 0 },
      { category: 5, f1: 1, bleu1: 0 },
    ]);
    expect(s.headline?.n).toBe(3);
    expect(s.headline?.f1).toBeCloseTo(0.5, 12);
    expect(s.headline?.bleu1).toBeCloseTo(0.2, 12);
    expect(s.headline?.judge).toEqual({ mean: 2 / 3, sd: 0, runs: 1, n: 3 });
    expect(s.adversarial).toEqual({ n: 1, f1: 1, bleu1: 0 });
    expect(Object.keys(s.perCategory)).toEqual(['1', '4', '5']);
    expect(s.perCategory['4']?.judge?.mean).toBe(0.5);
  });
});
