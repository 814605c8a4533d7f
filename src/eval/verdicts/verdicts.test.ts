// The verdict logic on hand-made data, each case one the old reports got wrong: a Holm family of one ablation (p_holm
// = p), an oracle strategy a fixed strategy beats, a tie broken alphabetically, a ratio over a 0.1 ms base, a headline
// at ceiling; and the MDE against Connor's formula and a design effect worked out by hand.
import { describe, expect, it } from 'vitest';
import { PlanConfigSchema, type PlanConfig } from '../../core/stats-config.ts';
import { computeComparisons, resolveRunStats, type RunStats, type ScoreInput } from '../stats/results/index.ts';
import {
  autoHeadline,
  computeVerdicts,
  connorSampleSize,
  designEffect,
  judge,
  mdePairedBinary,
  mdePaired,
  mdePairedNormal,
  overheadVerdict,
  premiseVerdict,
  allBaselinesVerdict,
  cellFlags,
  flagText,
  flagsColumn,
  parseFlags,
  type MethodFacts,
  type PlanRunInput,
  type QuestionFact,
  type RetrievalFact,
  type VerdictRow,
} from './index.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';

// ── builders ────────────────────────────────────────────────────────────────────────────────────────────────────
interface RunSpec {
  runId: string;
  name: string;
  plan: Partial<PlanConfig> & { experiment: PlanConfig['experiment'] };
  methods: { id: string; method: string; options?: Record<string, unknown> }[];
  reference?: string;
  referenceRun?: string;
  timingRepeats?: number;
}

const H = { metric: 'recall_any', level: 'session', k: 10 } as const;

function build(
  runs: RunSpec[],
  values: Record<string, Record<string, Record<string, number>>>,
  types: Record<string, string>,
  extra: {
    degraded?: Record<string, string>;
    latency?: Record<string, Record<string, number>>;
    rankings?: Record<string, Record<string, Record<string, string>>>;
  } = {},
) {
  // values[runId][method][questionId] = score at H
  const scores: ScoreInput[] = [];
  const questions: QuestionFact[] = [];
  const methods: MethodFacts[] = [];
  const retrievals: RetrievalFact[] = [];
  for (const r of runs) {
    for (const q of Object.keys(types))
      questions.push({ runId: r.runId, dataset: 'd', questionId: q, adaptType: types[q]! });
    for (const m of r.methods) {
      methods.push({
        runId: r.runId,
        method: m.id,
        kind: m.method,
        upperBound: false,
        degraded: extra.degraded?.[m.id] ?? null,
        ranks: true,
      });
      for (const [q, v] of Object.entries(values[r.runId]?.[m.id] ?? {})) {
        scores.push({
          runId: r.runId,
          dataset: 'd',
          questionId: q,
          method: m.id,
          granularity: 'session',
          ...H,
          value: v,
          adaptType: types[q]!,
          nativeType: types[q]!,
        });
        retrievals.push({
          runId: r.runId,
          dataset: 'd',
          questionId: q,
          method: m.id,
          latencyMs: extra.latency?.[m.id]?.[q] ?? 1,
          ranking: extra.rankings?.[r.runId]?.[m.id]?.[q] ?? `${m.id}:${q}`,
          empty: false,
          route: null,
          error: false,
        });
      }
    }
  }
  const byName = new Map(runs.map((r) => [r.name, r.runId]));
  const runStats = new Map<string, RunStats>(
    runs.map((r) => [
      r.runId,
      resolveRunStats(
        r.runId,
        {
          name: r.name,
          seed: 1,
          methods: r.methods,
          stats: {
            resamples: 400,
            ci: 'bca',
            confidence: 0.95,
            cluster: 'auto',
            family: 'metric-type',
            continuousTest: 'sign-flip',
            ...(r.reference ? { reference: r.reference } : {}),
            ...(r.referenceRun ? { referenceRun: r.referenceRun } : {}),
          },
        },
        (n) => byName.get(n),
      ),
    ]),
  );
  const plans: PlanRunInput[] = runs.map((r) => ({
    runId: r.runId,
    name: r.name,
    seed: 1,
    plan: PlanConfigSchema.parse({ headline: { d: { metric: 'recall_any', level: 'session', k: 10 } }, ...r.plan }),
    methods: r.methods.map((m) => ({ ...m, options: m.options ?? {} })),
    referenceRun: r.referenceRun ?? null,
    timingRepeats: r.timingRepeats ?? 1,
    qa: false,
  }));
  const comparisons = computeComparisons(scores, runStats);
  return { scores, questions, methods, retrievals, runs: plans, runStats, comparisons };
}

const ids = (n: number, prefix = 'q'): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
const series = (qs: string[], f: (q: string, i: number) => number): Record<string, number> =>
  Object.fromEntries(qs.map((q, i) => [q, f(q, i)]));
const find = (rows: VerdictRow[], claim: string, type = 'all', a?: string): VerdictRow => {
  const r = rows.find((v) => v.claim === claim && v.adaptType === type && (a === undefined || v.methodA === a));
  if (!r) throw new Error(`no ${claim} ${type} row`);
  return r;
};

// ── the MDE ─────────────────────────────────────────────────────────────────────────────────────────────────────
describe('minimum detectable effect', () => {
  it("solves Connor's paired-binary sample size for δ (hand: δ 0.10, ψ 0.20 → n 154.6)", () => {
    // n = (1.959964·√0.2 + 0.841621·√(0.2 − 0.01))² / 0.01 = (0.876522 + 0.366853)² / 0.01 = 154.60 (by hand).
    expect(connorSampleSize(0.1, 0.2)).toBeCloseTo(154.6, 1);
    expect(mdePairedBinary(154.598, 0.2)).toBeCloseTo(0.1, 4);
    // No discordant pair observed: ψ = δ (all discordant pairs one way), so n δ = (z_a + z_b √(1 − δ))²; at n 100 by
    // hand δ = 0.07666: (1.959964 + 0.841621 · √0.92334)² = 2.76869² = 7.6657 = 100 · 0.076657.
    expect(mdePairedBinary(100, 0)).toBeCloseTo(0.07666, 4);
    expect(connorSampleSize(0.076656, 0.076656)).toBeCloseTo(100, 1);
    // Larger n, smaller MDE; α / m for a family of m makes it larger.
    expect(mdePairedBinary(400, 0.2)!).toBeLessThan(mdePairedBinary(100, 0.2)!);
    expect(mdePairedBinary(100, 0.2, { alpha: 0.05 / 6, power: 0.8 })!).toBeGreaterThan(mdePairedBinary(100, 0.2)!);
    expect(mdePairedBinary(2, 0.5)).toBeNull(); // n below z²: nothing detectable
  });

  it('continuous scores: (z_a + z_b)·σ/√n (hand: n 25, σ 0.5 → 0.2802); undefined when the differences do not vary', () => {
    expect(mdePairedNormal(25, 0.5)).toBeCloseTo(((1.959964 + 0.841621) * 0.5) / 5, 5);
    // nDCG-like scores, every difference 0 (or all the same): no spread to scale, so no MDE rather than 0.
    expect(mdePaired([0.5, 0.25, 0.8, 0.1], [0.5, 0.25, 0.8, 0.1], undefined)).toBeNull();
    expect(mdePaired([0.6, 0.35, 0.9, 0.2], [0.5, 0.25, 0.8, 0.1], undefined)).toBeNull();
    expect(mdePaired([0.6, 0.25, 0.9, 0.1], [0.5, 0.25, 0.8, 0.1], undefined)).toBeGreaterThan(0);
    const flat = { n: 12, units: 12, estimate: 0, ciLow: 0, ciHigh: 0, pHolm: 1, mde: null };
    expect(judge(flat, { direction: 'greater', target: 0 }).reason).toBe(
      'no pair differs (MDE undefined: the paired differences do not vary)',
    );
  });

  it("Kish's design effect of clustered differences (hand: [1, 1, 0, 0] in two clusters → 3)", () => {
    // mean 0.5; var_iid = (4 · 0.25 / 3) / 4 = 1/12; cluster residuals ±1, var_cluster = 2/1 · 2 / 16 = 1/4 → 3.
    expect(designEffect([1, 1, 0, 0], ['a', 'a', 'b', 'b'])).toBeCloseTo(3, 12);
    expect(designEffect([1, 1, 0, 0], undefined)).toBe(1);
    expect(designEffect([1, 0, 1, 0], ['a', 'a', 'b', 'b'])).toBe(1); // below 1 is clamped
  });
});

// ── the rule ────────────────────────────────────────────────────────────────────────────────────────────────────
describe('the verdict rule', () => {
  const e = { n: 40, units: 40, estimate: 0.12, ciLow: 0.06, ciHigh: 0.2, pHolm: 0.01, mde: 0.15 };
  it('reached needs the CI beyond the target and p_holm < 0.05; each failed criterion is named', () => {
    expect(judge(e, { direction: 'greater', target: 0.05 }).verdict).toBe('reached');
    const ne = judge({ ...e, ciLow: 0.02 }, { direction: 'greater', target: 0.05 });
    expect(ne.verdict).toBe('not established');
    expect(ne.reason).toMatch(/CI \[\+2\.0, \+20\.0\] reaches below \+5\.0/);
    expect(ne.reason).toMatch(/MDE 15\.0 points at n 40/);
    expect(judge({ ...e, pHolm: 0.06 }, { direction: 'greater', target: 0.05 }).reason).toMatch(
      /p_holm 0\.060 ≥ 0\.05/,
    );
    expect(judge({ ...e, ciLow: -0.1, ciHigh: 0.03 }, { direction: 'greater', target: 0.05 }).verdict).toBe('not met');
  });

  it('"no pair differs" is not met; fewer than 6 units is n/a; a drop mirrors the rule', () => {
    expect(
      judge({ ...e, estimate: 0, ciLow: 0, ciHigh: 0, pHolm: 1 }, { direction: 'greater', target: 0 }),
    ).toMatchObject({ verdict: 'not met', reason: expect.stringMatching(/no pair differs/) });
    expect(judge({ ...e, units: 5 }, { direction: 'greater', target: 0 })).toMatchObject({
      verdict: 'n/a',
      reason: expect.stringMatching(/n too small/),
    });
    expect(judge({ ...e, estimate: -0.12, ciLow: -0.2, ciHigh: -0.06 }, { direction: 'less', target: 0 }).verdict).toBe(
      'reached',
    );
    expect(judge({ ...e, estimate: 0, ciLow: 0, ciHigh: 0, pHolm: 1 }, { direction: 'less', target: 0 }).verdict).toBe(
      'not met',
    );
    expect(judge(null, { direction: 'less', target: 0 }).verdict).toBe('n/a');
  });

  it('overhead: a ratio only over a base of ≥ 1 ms and ≥ 3 timing repeats', () => {
    const ratio = { estimate: 1.1, low: 1.05, high: 1.2 };
    expect(overheadVerdict({ ratio, baseMedianMs: 0.1, repeats: 3 })).toMatchObject({
      verdict: 'n/a',
      estimate: null,
      reason: expect.stringMatching(/base < 1 ms/),
    });
    expect(overheadVerdict({ ratio, baseMedianMs: 5, repeats: 1 })).toMatchObject({
      verdict: 'n/a',
      reason: expect.stringMatching(/≥ 3 timing repeats/),
    });
    expect(overheadVerdict({ ratio, baseMedianMs: 5, repeats: 3 })).toMatchObject({
      verdict: 'reached',
      estimate: 1.1,
    });
    expect(overheadVerdict({ ratio: { estimate: 73, low: 40, high: 90 }, baseMedianMs: 5, repeats: 3 }).verdict).toBe(
      'not met',
    );
    expect(
      overheadVerdict({ ratio: { estimate: 1.25, low: 1.1, high: 1.4 }, baseMedianMs: 5, repeats: 3 }).verdict,
    ).toBe('not established');
  });

  it('the premise holds only when the oracle beats every single strategy', () => {
    expect(premiseVerdict({ estimate: -0.095, ciLow: -0.2, ciHigh: 0, pHolm: 1, units: 42 }, false).verdict).toBe(
      'not met',
    );
    expect(premiseVerdict({ estimate: 0, ciLow: 0, ciHigh: 0, pHolm: 1, units: 42 }, false).verdict).toBe('not met');
    expect(premiseVerdict({ estimate: 0.1, ciLow: 0.02, ciHigh: 0.2, pHolm: 0.01, units: 42 }, true).verdict).toBe(
      'reached',
    );
    expect(premiseVerdict({ estimate: 0.1, ciLow: 0.02, ciHigh: 0.2, pHolm: 0.01, units: 42 }, false).verdict).toBe(
      'not established',
    );
  });
});

// ── experiment 4: one family across the sweep ──────────────────────────────────────────────────────────────────
describe('experiment 4 families', () => {
  // 20 questions of one type. The full system hits all; ablation a misses 8 (exact McNemar p = 2·0.5⁸ = 0.0078125),
  // b misses none (p = 1), c misses 6 (p = 0.03125). Holm over the three: 0.0234, 1, 0.0625 (by hand).
  const qs = ids(20);
  const types = Object.fromEntries(qs.map((q) => [q, 'temporal']));
  const method = [{ id: 'adaptmr', method: 'adaptmr' }];
  const sweep = (id: string) => ({
    runId: `r-${id}`,
    name: `sw.${id}`,
    plan: { experiment: 'ablations' as const },
    methods: method,
    reference: 'adaptmr',
    referenceRun: 'sw.full',
  });
  const runs = [sweep('full'), sweep('no-a'), sweep('no-b'), sweep('no-c')];
  const values = {
    'r-full': { adaptmr: series(qs, () => 1) },
    'r-no-a': { adaptmr: series(qs, (_, i) => (i < 8 ? 0 : 1)) },
    'r-no-b': { adaptmr: series(qs, () => 1) },
    'r-no-c': { adaptmr: series(qs, (_, i) => (i < 6 ? 0 : 1)) },
  };
  const rankings = {
    'r-full': { adaptmr: series(qs, () => 0) },
    'r-no-c': { adaptmr: series(qs, (_, i) => (i < 7 ? 1 : 0)) },
  } as unknown as Record<string, Record<string, Record<string, string>>>;

  it('corrects over every ablation of a dataset × metric × type, in the verdicts and the comparisons table', () => {
    const input = build(runs, values, types, { rankings });
    const rows = computeVerdicts(input, PLAN_EXPERIMENT_REGISTRY);
    const c = find(rows, 'ablation:no-c', 'temporal');
    expect(c.pValue).toBeCloseTo(0.03125, 12);
    expect(c.familySize).toBe(3);
    expect(c.pHolm).toBeCloseTo(0.0625, 12); // alone in its family it would be 0.031 and "reached"
    expect(c.verdict).toBe('not established');
    expect(c.reason).toMatch(/ranking changed on 7 of 20 temporal questions/);
    const a = find(rows, 'ablation:no-a', 'temporal');
    expect(a.pHolm).toBeCloseTo(0.0234375, 12);
    expect(a.verdict).toBe('reached');
    expect(find(rows, 'ablation:no-b', 'temporal').verdict).toBe('not met');
    // The comparisons rows of the headline carry the same family and correction.
    const row = input.comparisons.find((x) => x.run === 'r-no-c' && x.adaptType === 'temporal' && x.k === 10)!;
    expect(row.familySize).toBe(3);
    expect(row.pHolm).toBeCloseTo(0.0625, 12);
    expect(row.family).toBe('sw.full/d/session/recall_any@10/temporal');
  });

  it('families: run keeps one family per ablation (the old behaviour, on request)', () => {
    const perRun = runs.map((r) => ({
      ...r,
      plan: { experiment: 'ablations' as const, families: { ablations: 'run' as const } },
    }));
    const rows = computeVerdicts(build(perRun, values, types), PLAN_EXPERIMENT_REGISTRY);
    const c = find(rows, 'ablation:no-c', 'temporal');
    expect(c.familySize).toBe(1);
    expect(c.pHolm).toBeCloseTo(0.03125, 12);
  });
});

// ── experiment 2: the oracle against the best single strategy ──────────────────────────────────────────────────
describe('experiment 2', () => {
  // 16 factual + 16 temporal questions. strategy-temporal hits every question. strategy-abstention hits exactly the
  // factual questions of the selection half (a tie at 1.0 there with strategy-temporal; strategy-factual is not in
  // the tie, so the oracle takes the first by id: strategy-abstention, which misses every factual report question).
  // strategy-factual hits the temporal selection questions (tied with strategy-temporal: the own strategy wins).
  const f = ids(16, 'f');
  const t = ids(16, 't');
  const types = {
    ...Object.fromEntries(f.map((q) => [q, 'factual'])),
    ...Object.fromEntries(t.map((q) => [q, 'temporal'])),
  };
  const strat = (name: string) => ({ id: `strategy-${name}`, method: 'strategy', options: { name } });
  const run = {
    runId: 'r2',
    name: 'e2',
    plan: { experiment: 'oracle-upper-bound' as const, split: 0.5 },
    methods: [{ id: 'unified', method: 'unified-embedding' }, strat('abstention'), strat('factual'), strat('temporal')],
    reference: 'unified',
  };

  it('compares the oracle with the best single strategy and says when one beats it; the tie rule prefers the own strategy', async () => {
    const { splitQuestions } = await import('../analysis/split.ts');
    const half = splitQuestions(
      Object.entries(types).map(([questionId, adaptType]) => ({ dataset: 'd', questionId, adaptType })),
      0.5,
      1,
    );
    const sel = (q: string): boolean => half.get(`d\t${q}`) === 'selection';
    const all = [...f, ...t];
    const values = {
      r2: {
        unified: series(all, () => 0),
        'strategy-temporal': series(all, () => 1),
        'strategy-abstention': series(all, (q) => (types[q] === 'factual' && sel(q) ? 1 : 0)),
        'strategy-factual': series(all, (q) => (types[q] === 'temporal' && sel(q) ? 1 : 0)),
      },
    };
    const rows = computeVerdicts(build([run], values, types), PLAN_EXPERIMENT_REGISTRY);
    const best = find(rows, 'oracle-vs-best-single');
    expect(best.methodB).toBe('strategy-temporal');
    expect(best.estimate).toBeCloseTo(-8 / 16, 12); // the oracle misses the 8 factual report questions
    expect(best.verdict).toBe('not met');
    const premise = find(rows, 'premise-single-strategy');
    expect(premise.verdict).toBe('not met');
    expect(premise.reason).toMatch(
      /per-question ceiling \(best strategy per question, the upper bound of any routing\) 100\.0%/,
    );
    // Intersection-union: the row's p is the largest over the strategies, and the reason names whose it is.
    expect(premise.reason).toMatch(
      /closest strategy-temporal; p is the largest of their p-values \(strategy-[a-z-]+'s\)/,
    );
    const temporal = find(rows, 'oracle-vs-unified', 'temporal');
    expect(temporal.reason).toMatch(
      /serves temporal with strategy-temporal \(tied with strategy-factual: the type's own strategy\)/,
    );
    expect(find(rows, 'oracle-vs-unified', 'factual').reason).toMatch(
      /with strategy-abstention \(tied with strategy-temporal: not the type's own; first by id\)/,
    );
    // The overall family of the dataset holds the premise too.
    expect(find(rows, 'oracle-vs-unified').familySize).toBe(3);
    // The per-type claims of the dataset form one family: 2 types × 2 claims (a claim about types is corrected over
    // all its per-type tests).
    expect(find(rows, 'oracle-vs-unified', 'temporal').familySize).toBe(4);
  });
});

describe('experiment 2 ties', () => {
  it('strategies tied on the selection half: one oracle-vs-best-single row per tied strategy, flagged, none picked', async () => {
    const { splitQuestions } = await import('../analysis/split.ts');
    const qs = ids(24);
    const types = Object.fromEntries(qs.map((q, i) => [q, i % 2 ? 'factual' : 'temporal']));
    const half = splitQuestions(
      qs.map((questionId) => ({ dataset: 'd', questionId, adaptType: types[questionId]! })),
      0.5,
      1,
    );
    const sel = (q: string): boolean => half.get(`d\t${q}`) === 'selection';
    const strat = (name: string) => ({ id: `strategy-${name}`, method: 'strategy', options: { name } });
    const run = {
      runId: 'r2',
      name: 'e2',
      plan: { experiment: 'oracle-upper-bound' as const, split: 0.5 },
      methods: [{ id: 'unified', method: 'unified-embedding' }, strat('factual'), strat('temporal')],
      reference: 'unified',
    };
    // Both strategies hit every selection question (a tie at 1.0); on the report half only strategy-temporal does.
    const values = {
      r2: {
        unified: series(qs, () => 0),
        'strategy-factual': series(qs, (q) => (sel(q) ? 1 : 0)),
        'strategy-temporal': series(qs, () => 1),
      },
    };
    const rows = computeVerdicts(build([run], values, types), PLAN_EXPERIMENT_REGISTRY);
    const best = rows.filter((v) => v.claim === 'oracle-vs-best-single' && v.adaptType === 'all');
    expect(best.map((v) => v.methodB)).toEqual(['strategy-factual', 'strategy-temporal']);
    for (const v of best) expect(v.flags).toContain('tie');
    expect(best[0]!.reason).toMatch(
      /tied for best single strategy on the selection half \(100\.0%\) with strategy-temporal: one row per tied strategy, none picked/,
    );
  });
});

// ── experiment 3: every baseline, stand-ins and AdaptMR's own strategies out ───────────────────────────────────
describe('experiment 3', () => {
  const qs = ids(24);
  const types = Object.fromEntries(qs.map((q, i) => [q, i % 2 ? 'factual' : 'temporal']));
  const run = {
    runId: 'r3',
    name: 'e3',
    plan: { experiment: 'adaptmr-vs-baselines' as const },
    reference: 'unified',
    methods: [
      { id: 'unified', method: 'unified-embedding' },
      { id: 'bm25', method: 'bm25' },
      { id: 'silent', method: 'reasoningbank' },
      { id: 'standin', method: 'rae' },
      { id: 'strategy-temporal', method: 'strategy', options: { name: 'temporal' } },
      { id: 'adaptmr', method: 'adaptmr' },
    ],
  };
  const values = {
    r3: {
      unified: series(qs, (_, i) => (i < 6 ? 1 : 0)),
      bm25: series(qs, () => 1),
      silent: series(qs, () => 0),
      standin: series(qs, (_, i) => (i < 20 ? 1 : 0)),
      'strategy-temporal': series(qs, () => 1),
      adaptmr: series(qs, (_, i) => (i < 14 ? 1 : 0)),
    },
  };
  const computed = () => {
    const input = build([run], values, types, { degraded: { silent: 'offline', standin: 'offline' } });
    for (const r of input.retrievals) if (r.method === 'silent') r.empty = true;
    return { input, rows: computeVerdicts(input, PLAN_EXPERIMENT_REGISTRY) };
  };

  it('compares AdaptMR with every baseline that ran — no stand-in, no strategy of its own — and with all at once', () => {
    const { rows } = computed();
    const vs = rows.filter((v) => v.claim === 'adaptmr-vs-baseline' && v.adaptType === 'all');
    expect(vs.map((v) => v.methodB)).toEqual(['unified', 'bm25']);
    expect(vs[0]!.estimate).toBeCloseTo(8 / 24, 12); // 14 hits − 6 hits
    expect(vs[1]!.estimate).toBeCloseTo(-10 / 24, 12);
    expect(rows.some((v) => v.claim === 'adaptmr-vs-strongest')).toBe(false);
    // Intersection-union: bm25 is never beaten (AdaptMR ≤ it on every question), so "beats every baseline" is not met.
    const all = find(rows, 'adaptmr-vs-all-baselines');
    expect(all.methodB).toBe('bm25');
    expect(all.verdict).toBe('not met');
    expect(all.pValue).toBe(Math.max(vs[0]!.pValue!, vs[1]!.pValue!));
    expect(all.pHolm).toBe(Math.max(vs[0]!.pHolm!, vs[1]!.pHolm!));
    // bm25 hits every question: the row vs bm25 is at ceiling and says so.
    expect(vs[1]!.flags).toBe('ceiling');
    expect(vs[1]!.reason).toMatch(/at ceiling: bm25 100\.0% is within its cell MDE \([\d.]+ points, α 0\.05\) of 100%/);
    expect(vs[0]!.flags).toBe('');
  });

  it('families: the overall claims of a dataset, and all its per-type claims together; stand-ins in none', () => {
    const { input, rows } = computed();
    const unified = find(rows, 'adaptmr-vs-unified');
    // Overall: adaptmr vs unified (the comparisons row, read by two claims: one test) and vs bm25 — not bm25 vs
    // unified (exploratory), not the intersection-union row (no test of its own).
    expect(unified.family).toBe('e3/d/session/recall_any@10/primary/all');
    expect(unified.familySize).toBe(2);
    expect(find(rows, 'adaptmr-vs-all-baselines').familySize).toBe(2);
    const row = input.comparisons.find((c) => c.methodA === 'adaptmr' && c.adaptType === 'all' && c.k === 10)!;
    expect(row.familySize).toBe(2);
    expect(row.pHolm).toBe(unified.pHolm);
    // Per type: 2 types × the same 2 tests, one family for the dataset.
    const temporal = find(rows, 'adaptmr-vs-unified', 'temporal');
    expect(temporal.family).toBe('e3/d/session/recall_any@10/primary/types');
    expect(temporal.familySize).toBe(4);
    const silent = input.comparisons.find((c) => c.methodA === 'silent' && c.adaptType === 'all' && c.k === 10)!;
    expect(silent.family).toMatch(/^excluded: silent returned no memory/);
    expect(Number.isNaN(silent.pHolm)).toBe(true);
    const standin = input.comparisons.find((c) => c.methodA === 'standin' && c.adaptType === 'all' && c.k === 10)!;
    expect(standin.family).toMatch(/^excluded: standin is a stand-in \(offline\)/);
    expect(find(rows, 'adaptmr-over-bm25').verdict).toBe('n/a');
  });

  it('the intersection-union rule: reached only when every baseline is beaten', () => {
    const e = { estimate: 0.1, ciLow: 0.02, ciHigh: 0.2, pHolm: 0.01, units: 40 };
    expect(allBaselinesVerdict(e, true, undefined).verdict).toBe('reached');
    expect(allBaselinesVerdict(e, false, undefined).verdict).toBe('not established');
    expect(allBaselinesVerdict({ ...e, pHolm: 0.2 }, true, undefined).verdict).toBe('not established');
    expect(allBaselinesVerdict(e, false, 'bm25')).toMatchObject({
      verdict: 'not met',
      reason: expect.stringMatching(/^bm25 scores at least as much/),
    });
  });
});

// ── flags ───────────────────────────────────────────────────────────────────────────────────────────────────────
describe('cell flags', () => {
  it('ceiling when the side to beat leaves less room than the MDE; floor when the side wanted higher is within it of 0', () => {
    expect(cellFlags({ higher: 0.9, lower: 0.957, mde: 0.1 })).toEqual(['ceiling']);
    expect(cellFlags({ higher: 0.9, lower: 0.85, mde: 0.1 })).toEqual([]);
    expect(cellFlags({ higher: 0.05, lower: 0.02, mde: 0.1 })).toEqual(['floor']);
    // An undefined MDE (no pair differs) flags only a cell exactly at 100% / 0%.
    expect(cellFlags({ higher: 1, lower: 1, mde: null })).toEqual(['ceiling']);
    expect(cellFlags({ higher: 0.5, lower: 0.5, mde: null })).toEqual([]);
    expect(cellFlags({ higher: 0.15, lower: 0.05, mde: 0.05, chance: 0.19 })).toEqual(['chance']);
    expect(flagText(['ceiling', 'tie'])).toBe(
      'flags: at ceiling; tie: the comparator tied with others on the selection half',
    );
    expect(parseFlags(flagsColumn(['tie', 'ceiling']))).toEqual(['ceiling', 'tie']);
  });
});

describe('chance flag', () => {
  // Experiment 4's sweep (describe above): the full system hits all 20, ablation no-a misses 8 (60%). A haystack of 12
  // sessions with 1 gold makes a random top-10 hit 1 − C(11,10)/C(12,10) = 1 − 11/66 = 83.3% (by hand): 60% is not
  // above it, so the row is `chance`; among 500 sessions a random top-10 hits 2.0%, and the row is not.
  const qs = ids(20);
  const types = Object.fromEntries(qs.map((q) => [q, 'temporal']));
  const sweep = (id: string) => ({
    runId: `r-${id}`,
    name: `sw.${id}`,
    plan: { experiment: 'ablations' as const },
    methods: [{ id: 'adaptmr', method: 'adaptmr' }],
    reference: 'adaptmr',
    referenceRun: 'sw.full',
  });
  const values = {
    'r-full': { adaptmr: series(qs, () => 1) },
    'r-no-a': { adaptmr: series(qs, (_, i) => (i < 8 ? 0 : 1)) },
  };
  const rankings = {
    'r-full': { adaptmr: series(qs, () => 0) },
    'r-no-a': { adaptmr: series(qs, (_, i) => (i < 8 ? 1 : 0)) },
  } as unknown as Record<string, Record<string, Record<string, string>>>;
  const withHaystack = (sessions: number | null) => {
    const input = build([sweep('full'), sweep('no-a')], values, types, { rankings });
    const questions = input.questions.map((q) => ({
      ...q,
      haystack: sessions === null ? null : { sessions, turns: sessions * 10, goldSessions: 1, goldTurns: 1 },
    }));
    return find(computeVerdicts({ ...input, questions }, PLAN_EXPERIMENT_REGISTRY), 'ablation:no-a', 'temporal');
  };

  it('fires when a cell is not above a random top-k from its haystack, and says so in the reason', () => {
    const row = withHaystack(12);
    expect(parseFlags(row.flags)).toContain('chance');
    expect(row.reason).toMatch(/at chance: adaptmr 60\.0% is within its cell MDE .* of a random top-k's 83\.3%/);
  });

  it('does not fire on a large haystack, nor when the file did not record the haystack', () => {
    expect(parseFlags(withHaystack(500).flags)).not.toContain('chance');
    expect(parseFlags(withHaystack(null).flags)).not.toContain('chance');
  });
});

// ── the headline rule ───────────────────────────────────────────────────────────────────────────────────────────
describe('headline rule', () => {
  it('never picks a cell at ceiling: it takes the one whose method means spread most on the selection half', () => {
    const qs = ids(20);
    const rows: ScoreInput[] = [];
    for (const [method, at1] of [
      ['a', 0.9],
      ['b', 0.3],
      ['c', 0.5],
    ] as const) {
      qs.forEach((q, i) => {
        const base = {
          runId: 'r',
          dataset: 'd',
          questionId: q,
          method,
          granularity: 'session',
          level: 'session',
          metric: 'recall_any',
          adaptType: 'factual',
          nativeType: 'x',
        };
        rows.push({ ...base, k: 10, value: 1 }, { ...base, k: 1, value: i < at1 * 20 ? 1 : 0 });
      });
    }
    const h = autoHeadline(rows, 'd', new Set(['a', 'b', 'c']), 0.5, 7)!;
    expect(h).toMatchObject({ metric: 'recall_any', level: 'session', k: 1 });
    expect(h.how).toMatch(/spreads the 3 methods' means most/);
  });
});

// ── experiment 1: factual above the weak types ──────────────────────────────────────────────────────────────────
describe('experiment 1', () => {
  it("compares a system's factual mean with each weak type (two-sample bootstrap) and gives the MDE", () => {
    const f = ids(20, 'f');
    const t = ids(20, 't');
    const types = {
      ...Object.fromEntries(f.map((q) => [q, 'factual'])),
      ...Object.fromEntries(t.map((q) => [q, 'temporal'])),
    };
    const run = {
      runId: 'r1',
      name: 'e1',
      plan: { experiment: 'existing-systems' as const },
      methods: [
        { id: 'good', method: 'bm25' },
        { id: 'flat', method: 'unified-embedding' },
      ],
    };
    const values = {
      r1: {
        good: { ...series(f, () => 1), ...series(t, (_, i) => i % 2) },
        flat: { ...series(f, () => 0), ...series(t, () => 1) },
      },
    };
    const rows = computeVerdicts(build([run], values, types), PLAN_EXPERIMENT_REGISTRY);
    const good = find(rows, 'factual-high-weak-low', 'temporal', 'good');
    expect(good.estimate).toBeCloseTo(0.5, 12); // 100% − 50% (by hand)
    expect(good.verdict).toBe('reached');
    expect(good.mde!).toBeGreaterThan(0);
    expect(good.reason).toMatch(/factual 100\.0% \(n 20\) vs temporal 50\.0% \(n 20\)/);
    const flat = find(rows, 'factual-high-weak-low', 'temporal', 'flat');
    expect(flat).toMatchObject({ estimate: -1, ciLow: -1, ciHigh: -1, verdict: 'not met' });
  });
});

// ── stale evidence (adaptmr-update-stale, the w/o-update ablation) and "at ceiling" ───────────────────────────────
/** Adds stale_above rows at the headline's level and k (values[runId][method][question]) and recomputes comparisons. */
function withStale(input: ReturnType<typeof build>, stale: Record<string, Record<string, Record<string, number>>>) {
  const template = new Map(input.scores.map((s) => [`${s.runId}\t${s.method}\t${s.questionId}`, s]));
  for (const [runId, byMethod] of Object.entries(stale))
    for (const [method, byQ] of Object.entries(byMethod))
      for (const [q, value] of Object.entries(byQ)) {
        const t = template.get(`${runId}\t${method}\t${q}`)!;
        input.scores.push({ ...t, metric: 'stale_above', value });
      }
  input.comparisons = computeComparisons(input.scores, input.runStats);
  return input;
}

describe('adaptmr-update-stale', () => {
  const qs = ids(24);
  const types = Object.fromEntries(qs.map((q) => [q, 'update']));
  const run = {
    runId: 'r3',
    name: 'e3',
    plan: { experiment: 'adaptmr-vs-baselines' as const },
    reference: 'unified',
    methods: [
      { id: 'unified', method: 'unified-embedding' },
      { id: 'bm25', method: 'bm25' },
      { id: 'adaptmr', method: 'adaptmr' },
    ],
  };
  const recall = { r3: { unified: series(qs, () => 0), bm25: series(qs, () => 1), adaptmr: series(qs, () => 0) } };

  it('claims a lower stale-evidence rate than the reference and every baseline, in its own family', () => {
    // unified stale on 12 of 24, adaptmr on 2 (both among those 12): 10 discordant pairs, all one way — exact McNemar
    // p = 2·0.5¹⁰ = 0.001953125; bm25 (the strongest on recall) stale on 12 too, paired on the report half only.
    const stale = {
      r3: {
        unified: series(qs, (_, i) => (i < 12 ? 1 : 0)),
        bm25: series(qs, (_, i) => (i < 12 ? 1 : 0)),
        adaptmr: series(qs, (_, i) => (i < 2 ? 1 : 0)),
      },
    };
    const rows = computeVerdicts(withStale(build([run], recall, types), stale), PLAN_EXPERIMENT_REGISTRY);
    const vsRef = rows.find((r) => r.claim === 'adaptmr-update-stale' && r.methodB === 'unified')!;
    expect(vsRef).toMatchObject({ metric: 'stale_above', level: 'session', k: 10, adaptType: 'update', n: 24 });
    expect(vsRef.estimate).toBeCloseTo(-10 / 24, 12);
    expect(vsRef.pValue).toBeCloseTo(0.001953125, 12);
    expect(vsRef.family).toBe('e3/d/session/stale_above@10/exploratory/update');
    // Its two claims (vs the reference, vs the one baseline); the comparisons row bm25 − unified has no claim of its own.
    expect(vsRef.familySize).toBe(2);
    expect(vsRef.verdict).toBe('reached');
    expect(vsRef.reason).toMatch(/lower is better/);
    const vsStrong = rows.find((r) => r.claim === 'adaptmr-update-stale' && r.methodB === 'bm25')!;
    expect(vsStrong.reason).toMatch(/vs the baseline bm25/);
    expect(vsStrong.n).toBe(24);
  });

  it('an update question set without superseded evidence gets n/a rows that say why', () => {
    const rows = computeVerdicts(build([run], recall, types), PLAN_EXPERIMENT_REGISTRY);
    const r = rows.filter((x) => x.claim === 'adaptmr-update-stale');
    expect(r.map((x) => x.verdict)).toEqual(['n/a', 'n/a']);
    expect(r[0]!.reason).toMatch(/no superseded evidence/);
  });

  it('the w/o-update ablation is judged on stale_above too: a rise claimed', () => {
    const method = [{ id: 'adaptmr', method: 'adaptmr' }];
    const sweep = (id: string) => ({
      runId: `r-${id}`,
      name: `sw.${id}`,
      plan: { experiment: 'ablations' as const },
      methods: method,
      reference: 'adaptmr',
      referenceRun: 'sw.full',
    });
    const runs = [sweep('full'), sweep('no-update-strategy')];
    const ones = { adaptmr: series(qs, () => 1) };
    // Without the update strategy the old value ranks first on 9 of 24: +9/24, p = 2·0.5⁹ = 0.00390625.
    const stale = {
      'r-full': { adaptmr: series(qs, () => 0) },
      'r-no-update-strategy': { adaptmr: series(qs, (_, i) => (i < 9 ? 1 : 0)) },
    };
    const input = withStale(build(runs, { 'r-full': ones, 'r-no-update-strategy': ones }, types), stale);
    const rows = computeVerdicts(input, PLAN_EXPERIMENT_REGISTRY);
    const r = rows.find((x) => x.claim === 'ablation:no-update-strategy' && x.metric === 'stale_above')!;
    expect(r.estimate).toBeCloseTo(9 / 24, 12);
    expect(r.pValue).toBeCloseTo(0.00390625, 12);
    expect(r.verdict).toBe('reached');
    expect(r.reason).toMatch(/a rise claimed/);
    // The recall claim of the same ablation is still there: identical rankings' recall makes it inert (flags.ts).
    const recallRow = rows.find((x) => x.claim === 'ablation:no-update-strategy' && x.metric === 'recall_any')!;
    expect(recallRow.verdict).toBe('n/a');
    expect(recallRow.reason).toMatch(/inert/);
  });
});

describe('at ceiling', () => {
  it('the headline rule takes a cell not at ceiling over a wider-spread one at ceiling, and says when all are', () => {
    const qs = ids(20);
    const rows: ScoreInput[] = [];
    // k=10: a 100%, b 20% (SD 40 points, at ceiling); k=1: a 60%, b 30% (SD 15 points).
    for (const [method, at10, at1] of [
      ['a', 1, 0.6],
      ['b', 0.2, 0.3],
    ] as const) {
      qs.forEach((q, i) => {
        const base = {
          runId: 'r',
          dataset: 'd',
          questionId: q,
          method,
          granularity: 'session',
          level: 'session',
          metric: 'recall_any',
          adaptType: 'factual',
          nativeType: 'x',
        };
        rows.push({ ...base, k: 10, value: i < at10 * 20 ? 1 : 0 }, { ...base, k: 1, value: i < at1 * 20 ? 1 : 0 });
      });
    }
    expect(autoHeadline(rows, 'd', new Set(['a', 'b']), 0.5, 7)).toMatchObject({ k: 1 });
    const onlyCeiling = rows.filter((r) => r.k === 10);
    const h = autoHeadline(onlyCeiling, 'd', new Set(['a', 'b']), 0.5, 7)!;
    expect(h.k).toBe(10);
    expect(h.how).toMatch(/every cell has a method at ceiling/);
  });
});

describe('memory-vs-none', () => {
  const qs = ids(20);
  const types = Object.fromEntries(qs.map((q) => [q, 'factual']));
  const run = {
    runId: 'rq',
    name: 'qa',
    plan: { experiment: 'adaptmr-vs-baselines' as const },
    reference: 'unified',
    methods: [
      { id: 'unified', method: 'unified-embedding' },
      { id: 'none', method: 'no-memory' },
    ],
  };

  it('each method against the closed-book control: a gain claimed, in its own family', () => {
    // unified right on 14 of 20, none on 4 (among those 14): 10 discordant pairs one way, p = 2·0.5¹⁰.
    const values = {
      rq: { unified: series(qs, (_, i) => (i < 14 ? 1 : 0)), none: series(qs, (_, i) => (i < 4 ? 1 : 0)) },
    };
    const rows = computeVerdicts(build([run], values, types), PLAN_EXPERIMENT_REGISTRY);
    const r = find(rows, 'memory-vs-none', 'all', 'unified');
    expect(r.methodB).toBe('none');
    expect(r.estimate).toBeCloseTo(10 / 20, 12);
    expect(r.pValue).toBeCloseTo(0.001953125, 12);
    expect(r.family).toBe('qa/d/session/recall_any@10/memory-vs-none');
    expect(r.verdict).toBe('reached');
    expect(r.reason).toMatch(/no memory \(none, the question alone\)/);
    expect(rows.some((x) => x.claim === 'memory-vs-none' && x.methodA === 'none')).toBe(false);
  });

  it('n/a, saying why, when the control has no score at the headline', () => {
    const rows = computeVerdicts(
      build([run], { rq: { unified: series(qs, () => 1) } }, types),
      PLAN_EXPERIMENT_REGISTRY,
    );
    const r = find(rows, 'memory-vs-none', 'all', 'unified');
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toMatch(/judged accuracy needs an llm: block/);
  });

  it('no claim without a no-memory method', () => {
    const plain = { ...run, methods: [run.methods[0]!] };
    const rows = computeVerdicts(
      build([plain], { rq: { unified: series(qs, () => 1) } }, types),
      PLAN_EXPERIMENT_REGISTRY,
    );
    expect(rows.some((x) => x.claim === 'memory-vs-none')).toBe(false);
  });
});
