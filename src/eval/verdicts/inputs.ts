/**
 * What the verdicts are computed from (plain rows the store loads, or tests build by hand) and the shared helpers
 * of the claim builders: score lookup per series, pairing two series on common questions, one paired test with the
 * same seeding as the `comparisons` table (so a verdict's numbers equal its comparison row's), and the verdict
 * rows' shape.
 */
import type { PlanConfig } from '../../core/stats-config.ts';
import { ADAPT_TYPES } from '../../core/types.ts';
import { comparePaired, type PlanCache, seedFor, type PairedResult } from '../stats/index.ts';
import { bootstrapFor, clusterLabels, type Bootstrap, type RunStats, type ScoreInput } from '../stats/results/index.ts';
import type { Verdict } from './rule.ts';
import { mean } from '../../core/averages.ts';

/** A run with a `plan:` block, as its config says. */
export interface PlanRunInput {
  runId: string;
  name: string;
  seed: number;
  plan: PlanConfig;
  /** Config order; `options` as configured (the base config: dataset entries may patch them). */
  methods: { id: string; method: string; options: Record<string, unknown> }[];
  /** stats.referenceRun (a run name), for sweep variations. */
  referenceRun: string | null;
  /** `timingRepeats` of the run (1 when absent). */
  timingRepeats: number;
  /** The run answers questions (a `qa:` block). */
  qa: boolean;
}

/** A method of a run as the `methods` table declares it. */
export interface MethodFacts {
  runId: string;
  method: string;
  kind: string;
  upperBound: boolean;
  degraded: string | null;
  /** False for methods without retrieval metrics (no source ids, or no ranking). */
  ranks: boolean;
}

/** One retrieval row, reduced to what the verdicts read. */
export interface RetrievalFact {
  runId: string;
  dataset: string;
  questionId: string;
  method: string;
  latencyMs: number;
  /** A fingerprint of the ranked unit ids (equal rankings, equal strings). */
  ranking: string;
  /** No unit returned (or "no relevant memory"). */
  empty: boolean;
  route: string | null;
  error: boolean;
}

export interface QuestionFact {
  runId: string;
  dataset: string;
  questionId: string;
  adaptType: string;
  /**
   * The haystack's size per retrieval level and the gold's (distinct evidence sessions, evidence turns), for the
   * chance rate (chance.ts); absent or null when the file did not record it (written before schema 5).
   */
  haystack?: { sessions: number | null; turns: number | null; goldSessions: number; goldTurns: number } | null;
}

export interface Headline {
  metric: string;
  level: string;
  k: number | null;
}

export const headlineText = (h: Headline): string => `${h.metric}${h.k === null ? '' : `@${h.k}`} (${h.level} level)`;

/** One row of the `verdicts` table (columns in the Contract's order, camelCase). */
export interface VerdictRow {
  experiment: string;
  dataset: string;
  claim: string;
  methodA: string | null;
  methodB: string | null;
  metric: string | null;
  level: string | null;
  k: number | null;
  adaptType: string;
  n: number;
  estimate: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  pValue: number | null;
  pHolm: number | null;
  family: string | null;
  familySize: number | null;
  mde: number | null;
  verdict: Verdict;
  reason: string;
  /** Comma-separated flags (flags.ts: ceiling, floor, chance, inert, tie); '' for none. */
  flags: string;
}

/** A paired sample: values of A and B on the same questions, sorted by id. */
export interface Pairs {
  ids: string[];
  types: string[];
  a: Float64Array;
  b: Float64Array;
}

/** Scores indexed per series: run, dataset, method, level, metric, k → question → value and type. */
export class ScoreIndex {
  private readonly series = new Map<string, Map<string, { value: number; adaptType: string }>>();

  constructor(rows: readonly ScoreInput[]) {
    for (const r of rows) {
      const key = ScoreIndex.key(r.runId, r.dataset, r.method, { metric: r.metric, level: r.level, k: r.k });
      let m = this.series.get(key);
      if (!m) this.series.set(key, (m = new Map()));
      m.set(r.questionId, { value: r.value, adaptType: r.adaptType });
    }
  }

  static key(runId: string, dataset: string, method: string, h: Headline): string {
    return [runId, dataset, method, h.level, h.metric, String(h.k)].join('\t');
  }

  get(
    runId: string,
    dataset: string,
    method: string,
    h: Headline,
  ): ReadonlyMap<string, { value: number; adaptType: string }> | undefined {
    return this.series.get(ScoreIndex.key(runId, dataset, method, h));
  }

  /** Questions both series scored, of one type (or all), optionally only those `keep` accepts. */
  pairs(
    a: { runId: string; method: string },
    b: { runId: string; method: string },
    dataset: string,
    h: Headline,
    type: string,
    keep?: (id: string) => boolean,
  ): Pairs {
    const sa = this.get(a.runId, dataset, a.method, h);
    const sb = this.get(b.runId, dataset, b.method, h);
    const ids: string[] = [];
    if (sa && sb) {
      for (const [id, v] of sa)
        if (sb.has(id) && (type === 'all' || v.adaptType === type) && (!keep || keep(id))) ids.push(id);
    }
    ids.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    return {
      ids,
      types: ids.map((id) => sa!.get(id)!.adaptType),
      a: Float64Array.from(ids, (id) => sa!.get(id)!.value),
      b: Float64Array.from(ids, (id) => sb!.get(id)!.value),
    };
  }
}

/** A paired test with the comparisons table's seeding: the same question set gives the same numbers. */
export interface TestedPairs extends Pairs {
  result: PairedResult;
  clusters: string[] | undefined;
  units: number;
  bootstrap: Bootstrap;
}

export function testPairs(
  p: Pairs,
  stats: Pick<RunStats, 'seed' | 'resamples' | 'ci' | 'alpha' | 'continuousTest' | 'cluster'>,
  plans: PlanCache,
  datasetIds: Iterable<string>,
): TestedPairs | null {
  if (p.ids.length === 0) return null;
  const bootstrap = bootstrapFor(datasetIds, stats.cluster);
  const clusters = clusterLabels(p.ids, bootstrap);
  const result = comparePaired(p.a, p.b, clusters, {
    resamples: stats.resamples,
    ci: stats.ci,
    alpha: stats.alpha,
    continuousTest: stats.continuousTest,
    plans,
    seed: seedFor(stats.seed, `pair\t${bootstrap}\t${p.ids.join('\n')}`),
  });
  return { ...p, result, clusters, units: clusters ? new Set(clusters).size : p.ids.length, bootstrap };
}

export { mean };

/**
 * Per-type claims are made on the five AdaptMR types only: a dataset's own type outside them (LoCoMo-Plus's
 * `cognitive`) has no plan figure and enters the overall (`all`) claims alone — which is what `outsideNote` says.
 * Native types reported apart (`Gold.reportAs: outside`) are not counted at all (their scores are stored, never averaged).
 */
export const isAdaptType = (t: string): boolean => (ADAPT_TYPES as readonly string[]).includes(t);

/** "all holds 401 cognitive questions (outside the five types: no per-type claim)", or undefined. */
export function outsideNote(typeCounts: ReadonlyMap<string, number>): string | undefined {
  const outside = [...typeCounts].filter(([t]) => t !== 'all' && !isAdaptType(t)).sort(([a], [b]) => (a < b ? -1 : 1));
  if (outside.length === 0) return undefined;
  return `all holds ${outside.map(([t, n]) => `${n} ${t}`).join(', ')} question${outside.reduce((s, [, n]) => s + n, 0) === 1 ? '' : 's'} (outside the five types: no per-type claim)`;
}

/** Questions per type of a series. */
export function typeCounts(series: Iterable<{ adaptType: string }> | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of series ?? []) out.set(v.adaptType, (out.get(v.adaptType) ?? 0) + 1);
  return out;
}
