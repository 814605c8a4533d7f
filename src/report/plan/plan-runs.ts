/**
 * The runs of a results file that declare one of the plan's five experiments (`plan:` in their config), with the
 * headline metric each section reports per dataset: the same as the verdicts' (src/eval/verdicts/headline.ts) —
 * declared in the `plan` block (per dataset: LoCoMo as turns next to LongMemEval S as sessions), judged accuracy when
 * the run answered questions and names no metric, else the one the verdicts were computed at (the default rule).
 */
import { z } from 'zod';
import type { PlanConfig } from '../../core/stats-config.ts';
import { declaredHeadline, experimentNames, type PlanRunInput } from '../../eval/verdicts/index.ts';
import { loadPlanRunInputs, readVerdicts, type ResultStore } from '../../store/index.ts';
import { seriesLabeller, type SeriesKey } from '../series-label.ts';
import { unrankedRows, type TypeMeanRow } from '../type-means.ts';
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
  /** The `experiment` column of its verdicts. */
  experiment: string;
  /** As the verdicts read it. */
  input: PlanRunInput;
}

const StoredConfig = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    stats: z.object({ reference: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();

export async function loadPlanRuns(store: ResultStore): Promise<PlanRun[]> {
  const inputs = await loadPlanRunInputs(store);
  const experimentOf = experimentNames(inputs);
  const configs = new Map(
    (await store.query<{ run_id: string; config_json: string }>(`SELECT run_id, config_json FROM runs`)).map((r) => [
      r.run_id,
      r.config_json,
    ]),
  );
  // Datasets in the order the run wrote them (its config order).
  const datasetRows = await store.query<{ run_id: string; dataset: string }>(
    `SELECT run_id, dataset FROM questions GROUP BY run_id, dataset ORDER BY run_id, min(rowid)`,
  );
  const verdicts = await readVerdicts(store);
  const out: PlanRun[] = [];
  for (const run of inputs) {
    const c = StoredConfig.parse(JSON.parse(configs.get(run.runId)!));
    const experiment = experimentOf(run);
    // Declared in the file; else the one the verdicts were computed at (the rule's choice, src/eval/verdicts/headline.ts).
    const headlineOf = (dataset: string): Headline => {
      const declared = declaredHeadline(run.plan, dataset, run.qa);
      if (declared) return declared;
      const v = verdicts.find(
        (x) => x.experiment === experiment && x.dataset === dataset && x.metric !== null && x.claim !== 'overhead',
      );
      return v ? { metric: v.metric!, level: v.level!, k: v.k } : { metric: 'recall_any', level: 'session', k: 10 };
    };
    out.push({
      runId: run.runId,
      name: run.name,
      description: c.description ?? null,
      seed: run.seed,
      plan: run.plan,
      experiment,
      datasets: datasetRows.filter((d) => d.run_id === run.runId).map((d) => d.dataset),
      headlineOf,
      methods: run.methods.map((m) => ({ id: m.id, method: m.method })),
      reference: c.stats?.reference ?? run.methods.find((m) => m.method === 'unified-embedding')?.id ?? null,
      referenceRun: run.referenceRun,
      input: run,
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
export function isHeadline(
  headlineOf: (dataset: string) => Headline,
  r: { dataset: string; metric: string; level: string; k: number | null },
): boolean {
  const h = headlineOf(r.dataset);
  return r.metric === h.metric && r.level === h.level && (r.k ?? null) === h.k;
}

/** The headline comparisons of a run: each dataset's at its own headline (src/report/comparison-cells.ts). */
export async function headlineComparisons(
  store: ResultStore,
  runIds: readonly string[],
  headlineOf: (dataset: string) => Headline,
  datasets: readonly string[],
): Promise<ComparisonCell[]> {
  const out: ComparisonCell[] = [];
  const seen = new Set<string>();
  for (const d of datasets) {
    const h = headlineOf(d);
    const key = headlineTitle(h);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      ...(await loadComparisons(store, h)).filter(
        (c) => runIds.includes(c.run) && headlineTitle(headlineOf(c.dataset)) === key,
      ),
    );
  }
  return out.sort((a, b) => (a.dataset < b.dataset ? -1 : a.dataset > b.dataset ? 1 : 0));
}

/**
 * Per-type means with CIs of some runs (rows of scores_by_type with native_type = 'all'), each dataset at its own
 * headline metric (`h` a function of the dataset) or all at one.
 */
export async function typeMeansOfRuns(
  store: ResultStore,
  runIds: readonly string[],
  h: Headline | ((dataset: string) => Headline),
  label?: (k: SeriesKey) => string,
): Promise<TypeMeanRow[]> {
  if (runIds.length === 0) return [];
  const headlineOf = typeof h === 'function' ? h : () => h;
  const rows = await store
    .query<
      SeriesKey & {
        dataset: string;
        metric: string;
        level: string;
        k: number | null;
        adapt_type: string;
        n: number;
        mean: number;
        ci_low: number | null;
        ci_high: number | null;
      }
    >(
      `SELECT run_id, dataset, method, granularity, metric, level, k, adapt_type, n, mean, ci_low, ci_high FROM scores_by_type
     WHERE native_type = 'all' ORDER BY dataset, run_id, method, adapt_type`,
    )
    .then((all) => all.filter((r) => runIds.includes(r.run_id) && isHeadline(headlineOf, r)));
  const lab = label ?? seriesLabeller(rows);
  // Methods without retrieval metrics (no ids, no ranking) are "n/a" rows, whatever scores an older file holds.
  const na = await unrankedRows(store, lab, runIds);
  const naKeys = new Set(na.map((r) => `${r.dataset}\t${r.series}`));
  return [
    ...rows
      .map((r) => ({
        dataset: r.dataset,
        series: lab(r),
        adaptType: r.adapt_type,
        n: r.n,
        mean: r.mean,
        ...(r.ci_low !== null && r.ci_high !== null ? { ciLow: r.ci_low, ciHigh: r.ci_high } : {}),
      }))
      .filter((r) => !naKeys.has(`${r.dataset}\t${r.series}`)),
    ...na,
  ];
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
export const points = (x: number): string => `${x >= 0 ? '+' : '-'}${Math.abs(x * 100).toFixed(1)}`;
