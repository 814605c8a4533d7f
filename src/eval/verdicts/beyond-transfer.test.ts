// The verdicts of the two experiments beyond the plan's five, on hand-made data: beyond-benchmarks makes experiment
// 3's and experiment 2's claims per dataset with the same declared families (a type outside the five enters "all"
// only), and router-transfer one claim per off-diagonal train × test cell, whose p-values, Holm corrections, verdicts
// and MDE are checked against hand computations (exact McNemar p = 2 · 0.5^wins when every discordant pair goes one
// way; Connor's formula solved by hand).
import { describe, expect, it } from 'vitest';
import { PlanConfigSchema } from '../../core/stats-config.ts';
import { computeComparisons, resolveRunStats, type RunStats, type ScoreInput } from '../stats/results/index.ts';
import {
  computeVerdicts,
  connorSampleSize,
  type MethodFacts,
  type PlanRunInput,
  type QuestionFact,
  type RetrievalFact,
  type VerdictRow,
} from './index.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';

const H = { metric: 'recall_any', level: 'session', k: 10 } as const;

interface Spec {
  plan: Record<string, unknown>;
  methods: { id: string; method: string; options?: Record<string, unknown>; upperBound?: boolean }[];
  /** dataset → question → AdaptMR type */
  types: Record<string, Record<string, string>>;
  /** dataset → method → question → score at H */
  values: Record<string, Record<string, Record<string, number>>>;
}

function build(s: Spec) {
  const runId = 'r';
  const scores: ScoreInput[] = [];
  const questions: QuestionFact[] = [];
  const methods: MethodFacts[] = s.methods.map((m) => ({
    runId,
    method: m.id,
    kind: m.method,
    upperBound: m.upperBound ?? false,
    degraded: null,
    ranks: true,
  }));
  const retrievals: RetrievalFact[] = [];
  for (const [dataset, types] of Object.entries(s.types)) {
    for (const [q, t] of Object.entries(types)) questions.push({ runId, dataset, questionId: q, adaptType: t });
    for (const m of s.methods) {
      for (const [q, value] of Object.entries(s.values[dataset]?.[m.id] ?? {})) {
        scores.push({
          runId,
          dataset,
          questionId: q,
          method: m.id,
          granularity: 'session',
          ...H,
          value,
          adaptType: types[q]!,
          nativeType: types[q]!,
        });
        retrievals.push({
          runId,
          dataset,
          questionId: q,
          method: m.id,
          latencyMs: 1,
          ranking: `${m.id}:${q}`,
          empty: false,
          route: null,
          error: false,
        });
      }
    }
  }
  const runStats = new Map<string, RunStats>([
    [
      runId,
      resolveRunStats(
        runId,
        {
          name: 'e',
          seed: 1,
          methods: s.methods,
          stats: {
            resamples: 400,
            ci: 'bca',
            confidence: 0.95,
            cluster: 'auto',
            family: 'metric-type',
            continuousTest: 'sign-flip',
            reference: 'unified',
          },
        },
        () => runId,
      ),
    ],
  ]);
  const runs: PlanRunInput[] = [
    {
      runId,
      name: 'e',
      seed: 1,
      plan: PlanConfigSchema.parse({ level: 'session', k: 10, ...s.plan }),
      methods: s.methods.map((m) => ({ id: m.id, method: m.method, options: m.options ?? {} })),
      referenceRun: null,
      timingRepeats: 1,
      qa: false,
    },
  ];
  const comparisons = computeComparisons(scores, runStats);
  return { scores, questions, methods, retrievals, runs, runStats, comparisons };
}

const ids = (n: number, prefix: string): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
const series = (qs: string[], f: (i: number) => number): Record<string, number> =>
  Object.fromEntries(qs.map((q, i) => [q, f(i)]));
const one = (rows: VerdictRow[], where: Partial<VerdictRow>): VerdictRow => {
  const hits = rows.filter((v) => Object.entries(where).every(([k, x]) => v[k as keyof VerdictRow] === x));
  if (hits.length !== 1) throw new Error(`${hits.length} rows for ${JSON.stringify(where)}`);
  return hits[0]!;
};

// ── beyond-benchmarks ───────────────────────────────────────────────────────────────────────────────────────────
describe('beyond-benchmarks verdicts', () => {
  // Dataset d: 12 factual + 12 temporal questions; dataset p: 24 of LoCoMo-Plus's own type, `cognitive`.
  const d = ids(24, 'd');
  const p = ids(24, 'p');
  const types = {
    d: Object.fromEntries(d.map((q, i) => [q, i % 2 ? 'factual' : 'temporal'])),
    p: Object.fromEntries(p.map((q) => [q, 'cognitive'])),
  };
  const strategy = (name: string) => ({
    id: `strategy-${name}`,
    method: 'strategy',
    options: { name, firstStage: 'embedding' },
  });
  const methods = [
    { id: 'unified', method: 'unified-embedding' },
    { id: 'bm25', method: 'bm25' },
    strategy('factual'),
    strategy('temporal'),
    { id: 'adaptmr', method: 'adaptmr', options: { firstStage: 'embedding' } },
    { id: 'adaptmr-bm25', method: 'adaptmr', options: { firstStage: 'bm25' } },
    { id: 'adaptmr-oracle', method: 'adaptmr', options: { router: { kind: 'oracle' } }, upperBound: true },
  ];
  const perDataset = (qs: string[]) => ({
    unified: series(qs, (i) => (i < 6 ? 1 : 0)),
    bm25: series(qs, (i) => (i < 10 ? 1 : 0)),
    'strategy-factual': series(qs, (i) => (i < 12 ? 1 : 0)),
    'strategy-temporal': series(qs, (i) => (i % 3 ? 1 : 0)),
    adaptmr: series(qs, (i) => (i < 14 ? 1 : 0)),
    'adaptmr-bm25': series(qs, (i) => (i < 16 ? 1 : 0)),
    'adaptmr-oracle': series(qs, () => 1),
  });
  const input = build({
    plan: { experiment: 'beyond-benchmarks', split: 0.5, gapTarget: 10 },
    methods,
    types,
    values: { d: perDataset(d), p: perDataset(p) },
  });
  const rows = computeVerdicts(input, PLAN_EXPERIMENT_REGISTRY);

  it("makes experiment 3's claims with the primary family: every AdaptMR variant (not gold-type routing) vs every baseline", () => {
    expect(new Set(rows.map((r) => r.experiment))).toEqual(new Set(['beyond-benchmarks']));
    const vsUnified = rows.filter(
      (r) => r.claim === 'adaptmr-vs-unified' && r.dataset === 'd' && r.adaptType === 'all',
    );
    expect(vsUnified.map((r) => r.methodA).sort()).toEqual(['adaptmr', 'adaptmr-bm25']);
    const a = one(rows, { claim: 'adaptmr-vs-unified', dataset: 'd', adaptType: 'all', methodA: 'adaptmr' });
    expect(a.estimate).toBeCloseTo((14 - 6) / 24, 12); // by hand
    expect(a.family).toBe('e/d/session/recall_any@10/primary/all');
    expect(a.familySize).toBe(4); // 2 variants × 2 baselines (vs unified is the same test as vs the baseline unified)
    // The baselines are unified and bm25 — not strategy-factual (AdaptMR's own strategy, best on the selection half),
    // not the gold-type router.
    const vs = rows.filter((r) => r.claim === 'adaptmr-vs-baseline' && r.dataset === 'd' && r.adaptType === 'all');
    expect(vs.map((r) => `${r.methodA}−${r.methodB}`).sort()).toEqual([
      'adaptmr-bm25−bm25',
      'adaptmr-bm25−unified',
      'adaptmr−bm25',
      'adaptmr−unified',
    ]);
    // Per type: one family of the dataset's per-type claims, 2 types × 4 tests.
    expect(
      one(rows, {
        claim: 'adaptmr-vs-baseline',
        dataset: 'd',
        adaptType: 'temporal',
        methodA: 'adaptmr-bm25',
        methodB: 'bm25',
      }).familySize,
    ).toBe(8);
    expect(
      one(rows, { claim: 'adaptmr-vs-all-baselines', dataset: 'd', adaptType: 'all', methodA: 'adaptmr' }).methodB,
    ).toBe('bm25');
    // Its comparisons row carries the same family and correction.
    const row = input.comparisons.find(
      (c) => c.dataset === 'd' && c.methodA === 'adaptmr' && c.adaptType === 'all' && c.k === 10,
    )!;
    expect(row.family).toBe(a.family);
    expect(row.pHolm).toBe(a.pHolm);
    // bm25 vs unified is exploratory, as in experiment 3.
    expect(
      input.comparisons.find((c) => c.dataset === 'd' && c.methodA === 'bm25' && c.adaptType === 'all' && c.k === 10)!
        .family,
    ).toBe('e/d/session/recall_any@10/exploratory/all');
  });

  it('tests AdaptMR over the BM25 first stage against bm25 alone (exploratory); over-hybrid has no variant: n/a', () => {
    const over = one(rows, { claim: 'adaptmr-over-bm25', dataset: 'd', adaptType: 'all' });
    expect([over.methodA, over.methodB]).toEqual(['adaptmr-bm25', 'bm25']);
    expect(over.estimate).toBeCloseTo((16 - 10) / 24, 12);
    expect(over.pValue).toBeCloseTo(2 * 0.5 ** 6, 12); // 6 wins, no loss: exact McNemar
    expect(over.family).toBe('e/d/session/recall_any@10/exploratory/all');
    expect(one(rows, { claim: 'adaptmr-over-hybrid', dataset: 'd' }).verdict).toBe('n/a');
  });

  it("makes experiment 2's claims with its families (3 overall, 4 over the two types)", () => {
    expect(one(rows, { claim: 'oracle-vs-unified', dataset: 'd', adaptType: 'all' }).familySize).toBe(3);
    expect(one(rows, { claim: 'oracle-vs-best-single', dataset: 'd', adaptType: 'factual' }).familySize).toBe(4);
    expect(one(rows, { claim: 'premise-single-strategy', dataset: 'd' }).family).toBe(
      'e/d/session/recall_any@10/oracle/all',
    );
  });

  it('a type outside the five enters "all" only: no per-type claim, and the reason says what "all" holds', () => {
    expect(rows.filter((r) => r.dataset === 'p' && r.adaptType !== 'all')).toEqual([]);
    const all = one(rows, { claim: 'adaptmr-vs-unified', dataset: 'p', adaptType: 'all', methodA: 'adaptmr' });
    expect(all.reason).toMatch(/all holds 24 cognitive questions \(outside the five types: no per-type claim\)/);
    expect(all.familySize).toBe(4);
    expect(one(rows, { claim: 'oracle-vs-unified', dataset: 'p', adaptType: 'all' }).reason).toMatch(
      /all holds 12 cognitive questions/,
    ); // report half
    // Their per-type comparisons rows are exploratory (no claim reads them), not in the primary family.
    expect(
      input.comparisons.find(
        (c) => c.dataset === 'p' && c.methodA === 'adaptmr' && c.adaptType === 'cognitive' && c.k === 10,
      )!.family,
    ).toBe('e/p/session/recall_any@10/exploratory/types');
  });
});

// ── router-transfer ─────────────────────────────────────────────────────────────────────────────────────────────
describe('router-transfer verdicts', () => {
  // Three test datasets of 20 questions; routers fitted on a (from-a) and on b (from-b); the rules router fitted on
  // nothing. Against unified embedding (the same first stage):
  //   from-a on b: no pair differs;                from-a on c: 8 wins, 0 losses → p = 2·0.5⁸ = 0.0078125;
  //   from-b on a: 7 losses, 0 wins → p = 2·0.5⁷ = 0.015625;   from-b on c: 6 wins → p = 2·0.5⁶ = 0.03125.
  const q = { a: ids(20, 'a'), b: ids(20, 'b'), c: ids(20, 'c') };
  const types = Object.fromEntries(
    Object.entries(q).map(([k, qs]) => [k, Object.fromEntries(qs.map((x) => [x, 'factual']))]),
  );
  const adaptmr = (id: string) => ({ id, method: 'adaptmr', options: { firstStage: 'embedding' } });
  const methods = [
    { id: 'unified', method: 'unified-embedding' },
    adaptmr('from-a'),
    adaptmr('from-b'),
    adaptmr('rules'),
  ];
  const values = {
    a: {
      unified: series(q.a, (i) => (i < 7 ? 1 : 0)),
      'from-a': series(q.a, () => 1),
      'from-b': series(q.a, () => 0),
      rules: series(q.a, () => 1),
    },
    b: {
      unified: series(q.b, () => 0),
      'from-a': series(q.b, () => 0),
      'from-b': series(q.b, () => 1),
      rules: series(q.b, () => 1),
    },
    c: {
      unified: series(q.c, () => 0),
      'from-a': series(q.c, (i) => (i < 8 ? 1 : 0)),
      'from-b': series(q.c, (i) => (i < 6 ? 1 : 0)),
      rules: series(q.c, () => 1),
    },
  };
  const plan = (families?: Record<string, unknown>) => ({
    experiment: 'router-transfer',
    transfer: { 'from-a': 'a', 'from-b': 'b' },
    ...(families ? { families } : {}),
  });

  it('one claim per off-diagonal cell; families.transfer: test-dataset — one family per test dataset; n, p, p_holm and the MDE by hand', () => {
    const input = build({ plan: plan({ transfer: 'test-dataset' }), methods, types, values });
    const rows = computeVerdicts(input, PLAN_EXPERIMENT_REGISTRY);
    expect(rows.map((r) => r.claim).sort()).toEqual([
      'transfer:a->b',
      'transfer:a->c',
      'transfer:b->a',
      'transfer:b->c',
    ]);
    const ac = one(rows, { claim: 'transfer:a->c' });
    expect(ac).toMatchObject({
      experiment: 'router-transfer',
      dataset: 'c',
      methodA: 'from-a',
      methodB: 'unified',
      adaptType: 'all',
      n: 20,
      familySize: 2,
    });
    expect(ac.estimate).toBeCloseTo(8 / 20, 12);
    expect(ac.pValue).toBeCloseTo(0.0078125, 12);
    expect(ac.pHolm).toBeCloseTo(2 * 0.0078125, 12); // Holm's first step over {0.0078125, 0.03125}
    expect(ac.ciLow!).toBeGreaterThan(0);
    expect(ac.verdict).toBe('reached');
    // MDE at α = 0.05 / 2, ψ̂ = 8/20 discordant: Connor's n solved for δ with ψ = max(ψ̂, δ). By hand at δ = 0.416
    // (ψ = δ): n = (2.241403·√0.416 + 0.841621·√(0.416 − 0.416²))² / 0.416² = (1.445663 + 0.414829)² / 0.173056 = 20.00.
    expect(ac.mde!).toBeCloseTo(0.416, 3);
    expect(connorSampleSize(ac.mde!, ac.mde!, { alpha: 0.025, power: 0.8 })).toBeCloseTo(20, 6);
    const bc = one(rows, { claim: 'transfer:b->c' });
    expect(bc.pHolm).toBeCloseTo(0.03125, 12); // Holm's second step: max(0.015625, 1 · 0.03125)
    expect(bc.verdict).toBe('reached');
    const ba = one(rows, { claim: 'transfer:b->a' });
    expect(ba).toMatchObject({ familySize: 1, verdict: 'not met' });
    expect(ba.estimate).toBeCloseTo(-7 / 20, 12);
    expect(ba.pHolm).toBeCloseTo(0.015625, 12);
    expect(ba.reason).toMatch(/routing hurts here/);
    expect(ba.reason).toMatch(/fitted on b .*tested on a; vs unified/);
    expect(one(rows, { claim: 'transfer:a->b' })).toMatchObject({
      verdict: 'not met',
      familySize: 1,
      reason: expect.stringMatching(/no pair differs/),
    });
    // The cell's comparisons row carries the same family and p_holm; the rules router's row is not in it.
    const row = input.comparisons.find(
      (c) => c.dataset === 'c' && c.methodA === 'from-a' && c.adaptType === 'all' && c.k === 10,
    )!;
    expect(row.family).toBe(ac.family);
    expect(row.family).toBe('e/c/session/recall_any@10/transfer');
    expect(row.pHolm).toBe(ac.pHolm);
    expect(row.familySize).toBe(2);
    expect(
      input.comparisons.find((c) => c.dataset === 'c' && c.methodA === 'rules' && c.adaptType === 'all' && c.k === 10)!
        .family,
    ).not.toMatch(/transfer/);
  });

  it('by default one family of the 4 cells — the table read as one claim (Holm by hand: 0.03125, 0.046875, 0.0625, 1)', () => {
    const rows = computeVerdicts(build({ plan: plan(), methods, types, values }), PLAN_EXPERIMENT_REGISTRY);
    expect(
      computeVerdicts(build({ plan: plan({ transfer: 'all' }), methods, types, values }), PLAN_EXPERIMENT_REGISTRY),
    ).toEqual(rows);
    for (const r of rows) expect([r.family, r.familySize]).toEqual(['e/transfer', 4]);
    expect(one(rows, { claim: 'transfer:a->c' }).pHolm).toBeCloseTo(0.03125, 12);
    expect(one(rows, { claim: 'transfer:b->a' }).pHolm).toBeCloseTo(0.046875, 12);
    const bc = one(rows, { claim: 'transfer:b->c' });
    expect(bc.pHolm).toBeCloseTo(0.0625, 12);
    expect(bc.verdict).toBe('not established'); // reached alone in its test dataset's family
    expect(one(rows, { claim: 'transfer:a->b' }).pHolm).toBe(1);
  });
});
