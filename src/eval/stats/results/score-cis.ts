/**
 * Bootstrap CIs of every cell of the `scores_by_type` view: per (run, dataset, method, granularity, level, metric,
 * k) the same three grouping sets the view has — (AdaptMR type × native type), (AdaptMR type, native 'all') and
 * ('all', 'all') — each with n, mean, the interval and which bootstrap was used. Questions are sorted by id and
 * the plan is seeded from the run's seed and the cell's question set, so the result depends only on the rows:
 * recomputing a file (or a merge of files) gives the same numbers, and cells over the same questions share one
 * resampling plan.
 */
import {
  bootstrapDistributions,
  clusterBy,
  intervalFrom,
  singletons,
  type CiMethod,
  type Clustered,
  type Interval,
} from '../bootstrap.ts';
import { PlanCache, seedFor } from '../resample.ts';
import { bootstrapFor, byId, clusterLabels, type Bootstrap, type RunStats, type ScoreInput } from './inputs.ts';

export interface ScoreCiRow {
  runId: string;
  dataset: string;
  method: string;
  granularity: string;
  level: string;
  metric: string;
  k: number | null;
  adaptType: string;
  nativeType: string;
  n: number;
  mean: number;
  ciLow: number;
  ciHigh: number;
  ciMethod: CiMethod;
  bootstrap: Bootstrap;
  /** Resampled units (questions or conversations). */
  units: number;
  resamples: number;
}

export function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** The bootstrap decision per run and dataset, over all the dataset's questions in the rows. */
export function bootstrapKinds(
  rows: readonly ScoreInput[],
  runs: ReadonlyMap<string, RunStats>,
): Map<string, Bootstrap> {
  const ids = new Map<string, Set<string>>();
  for (const r of rows) {
    const key = `${r.runId}\t${r.dataset}`;
    (ids.get(key) ?? ids.set(key, new Set()).get(key)!).add(r.questionId);
  }
  const out = new Map<string, Bootstrap>();
  for (const [key, set] of ids) out.set(key, bootstrapFor(set, runs.get(key.split('\t')[0]!)?.cluster ?? 'auto'));
  return out;
}

/** A cell's groups: all its questions, then each AdaptMR type, then each native type within it. */
function typeGroups(cell: ScoreInput[]): [string, string, ScoreInput[]][] {
  const groups: [string, string, ScoreInput[]][] = [['all', 'all', cell]];
  for (const [t, list] of groupBy(cell, (r) => r.adaptType)) {
    groups.push([t, 'all', list]);
    for (const [nt, sub] of groupBy(list, (r) => r.nativeType)) groups.push([t, nt, sub]);
  }
  return groups;
}

/**
 * Every cell over one question set resamples with the same plan: their bootstrap distributions are drawn in one
 * pass over it (bootstrapDistributions), each plan drawn once. Returns the intervals by memo key.
 */
function drawIntervals(
  wanted: ReadonlyMap<string, { units: Clustered; ci: CiMethod; alpha: number }>,
  byPlan: ReadonlyMap<string, { n: number; resamples: number; seed: number; keys: string[] }>,
  plans: PlanCache,
): Map<string, Interval> {
  const intervals = new Map<string, Interval>();
  for (const p of byPlan.values()) {
    const cis = p.keys.map((key) => wanted.get(key)!);
    const thetas = bootstrapDistributions(
      cis.map((c) => c.units),
      plans.get(p.n, p.resamples, p.seed),
    );
    cis.forEach((c, i) => intervals.set(p.keys[i]!, intervalFrom(c.units, thetas[i]!, c.ci, c.alpha)));
  }
  return intervals;
}

export function computeScoreCis(
  rows: readonly ScoreInput[],
  runs: ReadonlyMap<string, RunStats>,
  plans = new PlanCache(32),
): ScoreCiRow[] {
  const kinds = bootstrapKinds(rows, runs);
  const out: { row: Omit<ScoreCiRow, 'mean' | 'ciLow' | 'ciHigh' | 'ciMethod'>; interval: string }[] = [];
  // Distinct intervals to compute, by memo key, grouped by the plan they resample with.
  const wanted = new Map<string, { units: Clustered; ci: CiMethod; alpha: number }>();
  const byPlan = new Map<string, { n: number; resamples: number; seed: number; keys: string[] }>();
  // The rows in question-id order once, so that every group below is in that order without a sort of its own.
  const ordered = [...rows].sort((a, b) => byId(a.questionId, b.questionId));
  const cells = groupBy(
    ordered,
    (r) => `${r.runId}\t${r.dataset}\t${r.method}\t${r.granularity}\t${r.level}\t${r.metric}\t${r.k}`,
  );
  // Cells of different metrics over the same questions share their seed (and so their plan).
  const seeds = new Map<string, number>();
  for (const cell of cells.values()) {
    const first = cell[0]!;
    const run = runs.get(first.runId);
    if (!run) continue;
    const bootstrap = kinds.get(`${first.runId}\t${first.dataset}`) ?? 'question';
    for (const [adaptType, nativeType, list] of typeGroups(cell)) {
      const ids = list.map((r) => r.questionId);
      const labels = clusterLabels(ids, bootstrap);
      const values = list.map((r) => r.value);
      const units = labels ? clusterBy(values, labels) : singletons(values);
      const seedInput = `${first.dataset}\t${bootstrap}\t${ids.join('\n')}`;
      let seed = seeds.get(`${run.seed}:${seedInput}`);
      if (seed === undefined) seeds.set(`${run.seed}:${seedInput}`, (seed = seedFor(run.seed, seedInput)));
      // Cells over the same questions often hold the same values (recall_any@30 and @50 both all ones, say): the
      // interval is a pure function of the units, the plan and the method, so an identical cell reuses it.
      const plan = `${units.sums.length}:${run.resamples}:${seed}`;
      const memoKey = `${plan}:${run.ci}:${run.alpha}:${units.sums.join(',')}:${labels ? units.counts.join(',') : ''}`;
      if (!wanted.has(memoKey)) {
        wanted.set(memoKey, { units, ci: run.ci, alpha: run.alpha });
        const p =
          byPlan.get(plan) ??
          byPlan.set(plan, { n: units.sums.length, resamples: run.resamples, seed, keys: [] }).get(plan)!;
        p.keys.push(memoKey);
      }
      out.push({
        row: {
          runId: first.runId,
          dataset: first.dataset,
          method: first.method,
          granularity: first.granularity,
          level: first.level,
          metric: first.metric,
          k: first.k,
          adaptType,
          nativeType,
          n: list.length,
          bootstrap,
          units: units.sums.length,
          resamples: run.resamples,
        },
        interval: memoKey,
      });
    }
  }
  const intervals = drawIntervals(wanted, byPlan, plans);
  return out.map(({ row, interval }) => {
    const ci = intervals.get(interval)!;
    return { ...row, mean: ci.estimate, ciLow: ci.low, ciHigh: ci.high, ciMethod: ci.method };
  });
}
