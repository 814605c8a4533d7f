/**
 * The runs of a results file that declare one of the plan's five experiments (`plan:` in their config), with the
 * headline metric each section reports per dataset: the `plan` block's metric / level / k (the level may differ per
 * dataset, e.g. LoCoMo as turns next to LongMemEval S as sessions); judged accuracy when the run answered questions
 * and names no metric; else recall_any@10 at session level.
 */
import { z } from 'zod';
import { PlanConfigSchema, type PlanConfig } from '../../core/stats-config.ts';
import type { ResultStore } from '../../store/index.ts';
import { seriesLabeller, type SeriesKey } from '../series-label.ts';
import type { TypeMeanRow } from '../type-means.ts';
import { loadComparisons, type ComparisonCell } from '../comparison-cells.ts';

export interface Headline {
  metric: string;
  level: string;
  k: number | null;
}

export interface PlanRun {
  runId: string;
  name: string;
  description: string | null;
  seed: number;
  plan: PlanConfig;
  /** Datasets of the run, in config order (as stored in the results). */
  datasets: string[];
  /** The headline metric on a dataset. */
  headlineOf: (dataset: string) => Headline;
  /** Method ids and registry names, config order. */
  methods: { id: string; method: string }[];
  reference: string | null;
  /** stats.referenceRun: the run (by name) whose reference method this run is compared with (sweep variations). */
  referenceRun: string | null;
}

const StoredConfig = z.object({
  name: z.string(),
  description: z.string().optional(),
  seed: z.number(),
  methods: z.array(z.object({ id: z.string(), method: z.string() }).passthrough()),
  qa: z.unknown().optional(),
  plan: PlanConfigSchema.optional(),
  stats: z.object({ reference: z.string().optional(), referenceRun: z.string().optional() }).passthrough().optional(),
}).passthrough();

export async function loadPlanRuns(store: ResultStore): Promise<PlanRun[]> {
  const rows = await store.query<{ run_id: string; config_json: string }>(`SELECT run_id, config_json FROM runs ORDER BY started_at, run_id`);
  // Datasets in the order the run wrote them (its config order).
  const datasetRows = await store.query<{ run_id: string; dataset: string }>(
    `SELECT run_id, dataset FROM questions GROUP BY run_id, dataset ORDER BY run_id, min(rowid)`);
  const out: PlanRun[] = [];
  for (const r of rows) {
    const parsed = StoredConfig.safeParse(JSON.parse(r.config_json));
    if (!parsed.success || !parsed.data.plan) continue;
    const c = parsed.data;
    const plan = c.plan!;
    const qa = c.qa !== undefined;
    const headlineOf = (dataset: string): Headline => {
      // With answers and no metric named, the headline is judged accuracy whatever `level` says: `level` (and its
      // per-dataset map) then describes the retrieval headline the same file reports offline.
      if (qa && plan.metric === undefined) return { metric: 'accuracy', level: 'qa', k: null };
      const level = (typeof plan.level === 'string' ? plan.level : plan.level?.[dataset]) ?? (qa ? 'qa' : 'session');
      const metric = (typeof plan.metric === 'string' ? plan.metric : plan.metric?.[dataset]) ?? (qa ? 'accuracy' : 'recall_any');
      const k = (typeof plan.k === 'number' ? plan.k : plan.k?.[dataset]) ?? 10;
      return { metric, level, k: level === 'qa' ? null : k };
    };
    out.push({
      runId: r.run_id, name: c.name, description: c.description ?? null, seed: c.seed, plan,
      datasets: datasetRows.filter((d) => d.run_id === r.run_id).map((d) => d.dataset),
      headlineOf,
      methods: c.methods.map((m) => ({ id: m.id, method: m.method })),
      reference: c.stats?.reference ?? c.methods.find((m) => m.method === 'unified-embedding')?.id ?? null,
      referenceRun: c.stats?.referenceRun ?? null,
    });
  }
  return out;
}

export const headlineTitle = (h: Headline): string => `${h.metric}${h.k === null ? '' : `@${h.k}`} (${h.level} level)`;

/** The run's headline over its datasets: `recall_any@10 (session level)`, or per dataset when they differ. */
export function runHeadlineTitle(run: Pick<PlanRun, 'datasets' | 'headlineOf'>): string {
  const titles = run.datasets.map((d) => headlineTitle(run.headlineOf(d)));
  if (titles.length === 0) return headlineTitle(run.headlineOf(''));
  if (new Set(titles).size === 1) return titles[0]!;
  return run.datasets.map((d, i) => `${d}: ${titles[i]}`).join('; ');
}

/** Whether a row of some dataset carries that dataset's headline metric. */
export function isHeadline(headlineOf: (dataset: string) => Headline, r: { dataset: string; metric: string; level: string; k: number | null }): boolean {
  const h = headlineOf(r.dataset);
  return r.metric === h.metric && r.level === h.level && (r.k ?? null) === h.k;
}

/** The headline comparisons of a run: each dataset's at its own headline (src/report/comparison-cells.ts). */
export async function headlineComparisons(store: ResultStore, runIds: readonly string[], headlineOf: (dataset: string) => Headline, datasets: readonly string[]): Promise<ComparisonCell[]> {
  const out: ComparisonCell[] = [];
  const seen = new Set<string>();
  for (const d of datasets) {
    const h = headlineOf(d);
    const key = headlineTitle(h);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(...(await loadComparisons(store, h)).filter((c) => runIds.includes(c.run) && headlineTitle(headlineOf(c.dataset)) === key));
  }
  return out.sort((a, b) => (a.dataset < b.dataset ? -1 : a.dataset > b.dataset ? 1 : 0));
}

/**
 * Per-type means with CIs of some runs (rows of scores_by_type with native_type = 'all'), each dataset at its own
 * headline metric (`h` a function of the dataset) or all at one.
 */
export async function typeMeansOfRuns(store: ResultStore, runIds: readonly string[], h: Headline | ((dataset: string) => Headline), label?: (k: SeriesKey) => string): Promise<TypeMeanRow[]> {
  if (runIds.length === 0) return [];
  const headlineOf = typeof h === 'function' ? h : () => h;
  const rows = await store.query<SeriesKey & { dataset: string; metric: string; level: string; k: number | null; adapt_type: string; n: number; mean: number; ci_low: number | null; ci_high: number | null }>(
    `SELECT run_id, dataset, method, granularity, metric, level, k, adapt_type, n, mean, ci_low, ci_high FROM scores_by_type
     WHERE native_type = 'all' ORDER BY dataset, run_id, method, adapt_type`)
    .then((all) => all.filter((r) => runIds.includes(r.run_id) && isHeadline(headlineOf, r)));
  const lab = label ?? seriesLabeller(rows);
  return rows.map((r) => ({
    dataset: r.dataset, series: lab(r), adaptType: r.adapt_type, n: r.n, mean: r.mean,
    ...(r.ci_low !== null && r.ci_high !== null ? { ciLow: r.ci_low, ciHigh: r.ci_high } : {}),
  }));
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
export const points = (x: number): string => `${x >= 0 ? '+' : '-'}${Math.abs(x * 100).toFixed(1)}`;
