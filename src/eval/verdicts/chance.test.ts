// The chance rate of a random top-k against every ranking of a small haystack enumerated (the metric functions
// themselves averaged over all N! orders), finite on a large haystack, and "not computable" without the sizes.
import { describe, expect, it } from 'vitest';
import { ndcgAny, precision, recallAll, recallAny } from '../retrieval-metrics.ts';
import { reciprocalRank, recallFraction } from '../rank-metrics.ts';
import { ChanceRates, randomTopK } from './chance.ts';

function permutations(xs: string[]): string[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

const METRICS: Record<string, (ranked: string[], gold: Set<string>, k: number) => number> = {
  recall_any: recallAny,
  recall_all: recallAll,
  precision,
  ndcg_any: (r, g, k) => ndcgAny(r, g, k),
  mrr: (r, g, k) =>
    reciprocalRank(
      r.map((x) => g.has(x)),
      k,
    ),
  recall_frac: (r, g, k) => recallFraction(new Set(r.slice(0, k)), g),
};

describe('chance rate of a random top-k', () => {
  const units = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const orders = permutations(units);
  for (const g of [1, 2, 3])
    for (const k of [1, 3, 5, 10])
      it(`equals the mean over all 7! rankings (N 7, g ${g}, k ${k})`, () => {
        const gold = new Set(units.slice(0, g));
        for (const [metric, f] of Object.entries(METRICS)) {
          const mean = orders.reduce((s, o) => s + f(o, gold, k), 0) / orders.length;
          expect(randomTopK(metric, k, units.length, g), metric).toBeCloseTo(mean, 12);
        }
      });

  it('stays finite on a large haystack (recall_any@50 of 3 gold among 100,000 ≈ 1 − (1 − 3/N)^50)', () => {
    const r = randomTopK('recall_any', 50, 100_000, 3)!;
    expect(r).toBeCloseTo(1 - (1 - 3 / 100_000) ** 50, 6);
    expect(randomTopK('mrr', 50, 100_000, 3)).toBeGreaterThan(0);
    expect(randomTopK('stale_above', 10, 50, 1)).toBeNull();
    expect(randomTopK('accuracy', 10, 50, 1)).toBeNull();
    expect(randomTopK('recall_any', 10, 0, 1)).toBeNull();
  });

  it('a row averages its questions; unknown when any haystack size is missing (files before schema 5)', () => {
    const q = (id: string, sessions: number | null) => ({
      runId: 'r',
      dataset: 'd',
      questionId: id,
      adaptType: 'factual',
      haystack: sessions === null ? null : { sessions, turns: null, goldSessions: 1, goldTurns: 2 },
    });
    const rates = new ChanceRates([q('q1', 10), q('q2', 20), q('q3', null)]);
    expect(rates.rowRate('d', ['q1', 'q2'], 'recall_any', 'session', 5)).toBeCloseTo((0.5 + 0.25) / 2, 12);
    expect(rates.rowRate('d', ['q1', 'q3'], 'recall_any', 'session', 5)).toBeNull();
    expect(rates.rowRate('d', ['q1'], 'recall_any', 'turn', 5)).toBeNull();
    expect(rates.rowRate('d', ['q1'], 'accuracy', 'qa', null)).toBeNull();
    expect([...rates.unrecorded]).toEqual(['d']);
  });
});
