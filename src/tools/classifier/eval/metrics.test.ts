// Classification metrics from a hand-computed confusion matrix; stratified folds.
import { describe, expect, it } from 'vitest';
import type { AdaptType } from '../../../core/types.ts';
import { computeMetrics, percentile } from './metrics.ts';
import { stratifiedFolds } from './folds.ts';

describe('computeMetrics', () => {
  it('matches hand-computed accuracy, P/R/F1, macro-F1 and confusion', () => {
    const pairs: { gold: AdaptType; predicted: AdaptType }[] = [
      { gold: 'factual', predicted: 'factual' },
      { gold: 'factual', predicted: 'factual' },
      { gold: 'factual', predicted: 'temporal' },
      { gold: 'temporal', predicted: 'temporal' },
      { gold: 'temporal', predicted: 'factual' },
      { gold: 'multi-hop', predicted: 'multi-hop' },
    ];
    const m = computeMetrics(pairs);
    expect(m.n).toBe(6);
    expect(m.accuracy).toBeCloseTo(4 / 6, 12);
    // factual: tp 2, predicted 3, support 3 → P = R = F1 = 2/3. temporal: tp 1, predicted 2, support 2 → 1/2.
    expect(m.perType.factual).toEqual({ precision: 2 / 3, recall: 2 / 3, f1: 2 / 3, support: 3, predicted: 3 });
    expect(m.perType.temporal.f1).toBeCloseTo(0.5, 12);
    expect(m.perType['multi-hop'].f1).toBe(1);
    // update and abstention appear nowhere: excluded from the macro average (sklearn's default label set).
    expect(m.macroTypes).toEqual(['factual', 'temporal', 'multi-hop']);
    expect(m.macroF1).toBeCloseTo((2 / 3 + 0.5 + 1) / 3, 12);
    expect(m.confusion.factual.temporal).toBe(1);
    expect(m.confusion.temporal.factual).toBe(1);
    expect(m.perType.update).toEqual({ precision: 0, recall: 0, f1: 0, support: 0, predicted: 0 });
  });

  it('counts a type that is predicted but never gold in the macro average with F1 0', () => {
    const m = computeMetrics([
      { gold: 'factual', predicted: 'abstention' },
      { gold: 'factual', predicted: 'factual' },
    ]);
    // factual: P 1, R 1/2 → F1 2/3; abstention: P 0 → F1 0.
    expect(m.macroF1).toBeCloseTo((2 / 3 + 0) / 2, 12);
  });

  it('nearest-rank percentiles', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('stratifiedFolds', () => {
  it('spreads each type evenly over folds, deterministically per seed', () => {
    const strata = [...Array<string>(10).fill('a'), ...Array<string>(5).fill('b'), ...Array<string>(3).fill('c')];
    const f = stratifiedFolds(strata, 5, 1);
    expect(stratifiedFolds(strata, 5, 1)).toEqual(f);
    expect(stratifiedFolds(strata, 5, 2)).not.toEqual(f);
    for (let k = 0; k < 5; k++) {
      expect(strata.filter((s, i) => s === 'a' && f[i] === k)).toHaveLength(2);
      expect(strata.filter((s, i) => s === 'b' && f[i] === k)).toHaveLength(1);
    }
    const sizes = [0, 1, 2, 3, 4].map((k) => f.filter((x) => x === k).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(() => stratifiedFolds(strata, 1, 1)).toThrow(/≥ 2/);
  });
});
