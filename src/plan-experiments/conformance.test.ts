// Every plan experiment of the registry runs this suite: the registry and the config's accepted names are one list
// in one order (configs are a public contract), each entry is frozen, says what it is and makes its sections; on a
// small hand-made results file with one run of the experiment (a sweep for ablations), its claims are made under its
// name, deterministically, and every family it declares is scoped to its own run or its sweep's base run.
import { describe, expect, it } from 'vitest';
import { PLAN_EXPERIMENTS, PlanConfigSchema, STATS_DEFAULTS } from '../core/stats-config.ts';
import { ADAPT_TYPES } from '../core/types.ts';
import { computeComparisons, resolveRunStats, type ScoreInput } from '../eval/stats/results/index.ts';
import { computeVerdicts, type PlanRunInput, type VerdictInput } from '../eval/verdicts/index.ts';
import { planExperiment, PLAN_EXPERIMENT_REGISTRY } from './registry.ts';
import type { PlanExperiment } from './plan-experiment.ts';

const METHODS = [
  { id: 'unified-embedding', method: 'unified-embedding', options: {} },
  { id: 'bm25', method: 'bm25', options: {} },
  ...ADAPT_TYPES.map((t) => ({ id: `strategy-${t}`, method: 'strategy', options: { name: t } })),
  { id: 'adaptmr', method: 'adaptmr', options: { classifier: { name: 'rules' } } },
  { id: 'adaptmr-no-router', method: 'adaptmr', options: { classifier: { name: 'rules' } } },
];
const QUESTIONS = ADAPT_TYPES.flatMap((t) => Array.from({ length: 8 }, (_, i) => ({ id: `${t}-${i}`, type: t })));

/** A deterministic score in [0, 1] per method and question (methods differ, some questions tie). */
const score = (method: string, q: number): number => ((method.length * 7 + q * 13) % 10) / 9;

function runsOf(e: PlanExperiment): { runId: string; name: string; referenceRun: string | null }[] {
  if (e.name !== 'ablations') return [{ runId: 'r1', name: e.name, referenceRun: null }];
  return [
    { runId: 'r1', name: 'full', referenceRun: null },
    { runId: 'r2', name: 'no-router', referenceRun: 'full' },
  ];
}

function inputFor(e: PlanExperiment): VerdictInput {
  const runs = runsOf(e);
  const scores: ScoreInput[] = [];
  const H = { metric: 'recall_any', level: 'session', k: 10 };
  for (const r of runs)
    for (const m of METHODS)
      QUESTIONS.forEach((q, i) =>
        scores.push({
          runId: r.runId,
          dataset: 'd',
          questionId: q.id,
          method: m.id,
          granularity: 'session',
          ...H,
          value: score(m.id + r.runId, i),
          adaptType: q.type,
          nativeType: q.type,
        }),
      );
  const byName = new Map(runs.map((r) => [r.name, r.runId]));
  const runStats = new Map(
    runs.map((r) => [
      r.runId,
      resolveRunStats(
        r.runId,
        {
          name: r.name,
          seed: 1,
          methods: METHODS,
          stats: { ...STATS_DEFAULTS, resamples: 200, ...(r.referenceRun ? { referenceRun: r.referenceRun } : {}) },
        },
        (n) => byName.get(n),
      ),
    ]),
  );
  const plan = {
    experiment: e.name,
    headline: { d: H },
    ...(e.name === 'router-transfer' ? { transfer: { adaptmr: 'other' } } : {}),
  };
  const planRuns: PlanRunInput[] = runs.map((r) => ({
    runId: r.runId,
    name: r.name,
    seed: 1,
    plan: PlanConfigSchema.parse(plan),
    methods: METHODS,
    referenceRun: r.referenceRun,
    timingRepeats: 1,
    qa: false,
  }));
  return {
    scores,
    questions: runs.flatMap((r) =>
      QUESTIONS.map((q) => ({ runId: r.runId, dataset: 'd', questionId: q.id, adaptType: q.type })),
    ),
    methods: runs.flatMap((r) =>
      METHODS.map((m) => ({
        runId: r.runId,
        method: m.id,
        kind: m.method,
        upperBound: false,
        degraded: null,
        ranks: true,
      })),
    ),
    retrievals: runs.flatMap((r) =>
      METHODS.flatMap((m) =>
        QUESTIONS.map((q) => ({
          runId: r.runId,
          dataset: 'd',
          questionId: q.id,
          method: m.id,
          latencyMs: 1 + m.id.length,
          ranking: `${m.id}:${q.id}`,
          empty: false,
          route: null,
          error: false,
        })),
      ),
    ),
    runs: planRuns,
    runStats,
    comparisons: computeComparisons(scores, runStats),
  };
}

describe('the plan-experiment registry', () => {
  it("holds exactly the config's accepted names, in the report's (the plan's) order", () => {
    expect(PLAN_EXPERIMENT_REGISTRY.map((e) => e.name)).toEqual([...PLAN_EXPERIMENTS]);
  });

  it('an unknown name fails with "did you mean"', () => {
    expect(() => planExperiment('oracle-upper-bond')).toThrow(
      /unknown plan experiment "oracle-upper-bond"\. Did you mean "oracle-upper-bound"\?/,
    );
    const parsed = PlanConfigSchema.safeParse({ experiment: 'abalations' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/Did you mean "ablations"\?/);
  });
});

describe.each(PLAN_EXPERIMENT_REGISTRY.map((e) => [e.name, e] as const))('plan experiment %s', (name, e) => {
  it('is frozen, found by its name, says what it is in one line and makes its report sections', () => {
    expect(Object.isFrozen(e)).toBe(true);
    expect(planExperiment(name)).toBe(e);
    expect(e.description).toMatch(/^\S.*\S$/);
    expect(e.description).not.toContain('\n');
    expect(typeof e.sections).toBe('function');
    expect(e.claims ?? e.acrossRuns).toBeTypeOf('function');
  });

  it('makes its claims under its own name, deterministically, in families of its own runs', () => {
    const input = inputFor(e);
    const rows = computeVerdicts(input, PLAN_EXPERIMENT_REGISTRY);
    const own = rows.filter((r) => !r.claim.startsWith('memory'));
    expect(own.length).toBeGreaterThan(0);
    for (const r of own) expect(r.experiment).toBe(name);
    expect(computeVerdicts(inputFor(e), PLAN_EXPERIMENT_REGISTRY)).toEqual(rows);
    const names = input.runs.map((r) => r.name);
    const fresh = inputFor(e).comparisons.map((c) => c.family);
    const declared = input.comparisons.filter((c, i) => c.family !== fresh[i]);
    // Without a family hook every row keeps the default family; with one, the hook declares some, each in a family
    // of this file's runs (or excluded with its reason).
    if (!e.family) expect(declared).toEqual([]);
    else expect(declared.length).toBeGreaterThan(0);
    for (const c of declared) expect(c.family).toMatch(new RegExp(`^(excluded: |(${names.join('|')})/)`));
  });
});
