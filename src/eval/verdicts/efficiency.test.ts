// Efficiency arithmetic by hand: latency quantiles, stage means, calls/tokens per question, route shares, and the
// overhead ratio (Σ method / Σ reference over the same questions).
import { describe, expect, it } from 'vitest';
import { efficiencyOf, type QuestionTiming } from './efficiency.ts';

const t = (
  method: string,
  q: string,
  ms: number,
  stageMs: Record<string, number> = {},
  route: string | null = null,
): QuestionTiming => ({ method, questionId: q, latencyMs: ms, stageMs, route, error: false });

describe('efficiencyOf', () => {
  it('computes per-method latency, stages, calls, routes and the overhead ratio', () => {
    const timings = [
      t('ref', 'q1', 10),
      t('ref', 'q2', 20),
      t('ref', 'q3', 30),
      t('a', 'q1', 12, { classify: 2, retrieve: 10 }, 'factual'),
      t('a', 'q2', 26, { classify: 6, retrieve: 20 }, 'temporal'),
      t('a', 'q3', 34, { classify: 4, retrieve: 30 }, 'factual'),
      { ...t('a', 'q4', 999), error: true },
    ];
    const calls = [
      { method: 'a', questionId: 'q1', stage: 'reader', promptTokens: 100, completionTokens: 20, latencyMs: 5 },
    ];
    const [ref, a] = efficiencyOf(timings, calls, 'ref', { resamples: 500, seed: 1 });
    expect(ref).toMatchObject({
      method: 'ref',
      n: 3,
      meanMs: 20,
      p50Ms: 20,
      overhead: null,
      stageMeanMs: { retrieval: 20 },
    });
    expect(ref!.p95Ms).toBeCloseTo(29, 12);
    expect(a!.n).toBe(3); // the errored question is left out
    expect(a!.stageMeanMs).toEqual({ classify: 4, retrieve: 20 });
    expect(a!.routeShare).toEqual({ factual: 2 / 3, temporal: 1 / 3 });
    expect(a!.callsPerQuestion).toEqual({ reader: 1 / 3 });
    expect(a!.tokensPerQuestion).toEqual({ reader: 40 });
    expect(a!.overhead!.estimate).toBeCloseTo(72 / 60, 12);
    expect(a!.overhead!.low).toBeLessThanOrEqual(1.2);
    expect(a!.overhead!.high).toBeGreaterThanOrEqual(1.2);
    expect(a!.bootstrap).toBe('question');
  });

  it('resamples whole conversations for LoCoMo-style ids: the ratio is the same, its CI spans the conversations', () => {
    // Two conversations: c1 where method a costs 2× the reference, c2 where it costs the same.
    const timings = [
      t('ref', 'c1:q1', 10),
      t('ref', 'c1:q2', 10),
      t('ref', 'c2:q1', 10),
      t('ref', 'c2:q2', 10),
      t('a', 'c1:q1', 20),
      t('a', 'c1:q2', 20),
      t('a', 'c2:q1', 10),
      t('a', 'c2:q2', 10),
    ];
    const [, a] = efficiencyOf(timings, [], 'ref', { resamples: 500, seed: 1 });
    expect(a!.bootstrap).toBe('conversation');
    expect(a!.overhead!.estimate).toBeCloseTo(60 / 40, 12);
    // With conversations as units the resampled ratio is 1 (c2 twice), 1.5 or 2 (c1 twice); never a mix of halves.
    expect(a!.overhead!.low).toBeGreaterThanOrEqual(1 - 1e-9);
    expect(a!.overhead!.high).toBeLessThanOrEqual(2 + 1e-9);
    const [, q] = efficiencyOf(timings, [], 'ref', { resamples: 500, seed: 1, cluster: 'question' });
    expect(q!.bootstrap).toBe('question');
  });
});
