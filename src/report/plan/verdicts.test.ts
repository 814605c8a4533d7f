// The plan-prediction verdicts on hand-made cells: experiment 2's gap needs its CI at or above the target and a
// significant paired test (a tight BCa interval over a few LoCoMo conversations alone does not carry it), and
// experiment 3's wording says whether a point estimate sits in or above the plan's range.
import { describe, expect, it } from 'vitest';
import { predictionLine } from './adaptmr-vs-baselines.ts';
import { gapVerdict } from './oracle-upper-bound.ts';

describe('plan verdicts', () => {
  it('experiment 2: reached only with the CI above the target and p < 0.05', () => {
    expect(gapVerdict({ meanDiff: 0.233, ciLow: 0.1, pValue: 0.016 }, 10)).toMatch(/^reached/);
    expect(gapVerdict({ meanDiff: 0.233, ciLow: 0.1, pValue: 0.0625 }, 10)).toMatch(/^not established: the 95% CI is at or above 10 points but the paired test gives p 0.063/);
    expect(gapVerdict({ meanDiff: 0.167, ciLow: 0.048, pValue: 0.039 }, 10)).toMatch(/^not established: the point estimate reaches 10/);
    expect(gapVerdict({ meanDiff: 0.071, ciLow: -0.024, pValue: 0.3 }, 10)).toMatch(/^not reached: the gap is \+7\.1 points/);
  });

  it('experiment 3: says when the estimate is above the predicted range', () => {
    const cell = { run: 'r', dataset: 'locomo', methodA: 'a', methodB: 'b', granularity: 'turn', adaptType: 'all', nPairs: 60, nExcluded: 0, test: 't', bootstrap: 'conversation', pValue: 0.01 };
    expect(predictionLine({ ...cell, meanDiff: 0.164, ciLow: 0.082, ciHigh: 0.338, pHolm: 0.141 }, 5, 10, 'overall')).toMatch(/not established \(point estimate above the range; CI reaches below 5 or not significant\)/);
    expect(predictionLine({ ...cell, meanDiff: 0.07, ciLow: 0.01, ciHigh: 0.12, pHolm: 0.2 }, 5, 10, 'overall')).toMatch(/point estimate in range/);
    expect(predictionLine({ ...cell, meanDiff: 0.153, ciLow: 0.094, ciHigh: 0.235, pHolm: 0.002 }, 5, 10, 'overall')).toMatch(/→ plan \+5–10 points: met/);
  });
});
