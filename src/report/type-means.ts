/**
 * Reads per-AdaptMR-type means for one metric/level/k from the `scores_by_type` view (rows with native_type =
 * 'all': per type, plus adapt_type = 'all' for the official overall average). Each row gets a `series` label
 * (series-label.ts).
 */
import type { ResultStore } from '../store/index.ts';
import { seriesLabeller, type DegradedMarks, type SeriesKey } from './series-label.ts';

export interface TypeMeanQuery {
  metric: string;
  level: string;
  /** null selects QA metrics, whose k is NULL. */
  k: number | null;
  /** Labels series with a labeller shared with other tables (default: one built from these rows and `marks`). */
  label?: (r: SeriesKey) => string;
  /** Degraded methods, marked "(offline)" by the default labeller. */
  marks?: DegradedMarks;
}

export interface TypeMeanRow {
  dataset: string;
  /** Method label shown in tables and charts. */
  series: string;
  adaptType: string;
  n: number;
  mean: number;
  /** Sample sd of the mean over repeated judge runs, when there were several (QA accuracy only). */
  sd?: number;
  /** 95% bootstrap CI (score_cis), when the file's statistics are computed. */
  ciLow?: number;
  ciHigh?: number;
  /** A method without retrieval metrics (no unit ids, or no ranking): shown as "n/a" (never 0). */
  na?: boolean;
  /** Oracle (gold-type routing) method (the `methods` table); tables and charts show its label marked (palette.ts). */
  upperBound?: boolean;
}

interface ViewRow {
  run_id: string;
  dataset: string;
  method: string;
  granularity: string;
  adapt_type: string;
  n: number;
  mean: number;
  ci_low: number | null;
  ci_high: number | null;
  upper_bound: boolean | null;
}

export async function loadTypeMeans(store: ResultStore, q: TypeMeanQuery): Promise<TypeMeanRow[]> {
  const rows = await store.query<ViewRow>(
    `SELECT s.run_id, s.dataset, s.method, s.granularity, s.adapt_type, s.n, s.mean, s.ci_low, s.ci_high, m.upper_bound
     FROM scores_by_type s LEFT JOIN methods m ON m.run_id = s.run_id AND m.method = s.method
     WHERE s.native_type = 'all' AND s.metric = $1 AND s.level = $2 AND s.k IS NOT DISTINCT FROM $3
     ORDER BY s.dataset, s.method, s.granularity, s.run_id, s.adapt_type`,
    [q.metric, q.level, q.k],
  );
  const label = q.label ?? seriesLabeller(rows, q.marks);
  const out: TypeMeanRow[] = rows.map((r) => ({
    dataset: r.dataset,
    series: label(r),
    adaptType: r.adapt_type,
    n: r.n,
    mean: r.mean,
    upperBound: r.upper_bound === true,
    ...(r.ci_low !== null && r.ci_high !== null ? { ciLow: r.ci_low, ciHigh: r.ci_high } : {}),
  }));
  if (q.level === 'qa' || rows.length === 0) return out;
  // n/a wins over any score rows an older file holds for a method that does not rank.
  const na = await unrankedRows(store, label);
  const naKeys = new Set(na.map((r) => `${r.dataset}\t${r.series}`));
  return [...out.filter((r) => !naKeys.has(`${r.dataset}\t${r.series}`)), ...na];
}

/**
 * Methods without retrieval metrics — no unit ids (`output: text`), or no ranking (full context) — have no score rows
 * (older files may hold full context's): listed as "n/a" rows so a table says so rather than omitting them or
 * showing the recall of a list in date order. `runIds` narrows to some runs.
 */
export async function unrankedRows(
  store: ResultStore,
  label: (r: SeriesKey) => string,
  runIds?: readonly string[],
): Promise<TypeMeanRow[]> {
  const rows = await store.query<{ run_id: string; dataset: string; method: string; granularity: string }>(
    `SELECT DISTINCT r.run_id, r.dataset, r.method, r.granularity FROM retrievals r
     JOIN methods m ON m.run_id = r.run_id AND m.method = r.method
     WHERE m.output = 'text' OR m.capabilities LIKE '%"ranks":false%' OR m.kind = 'full-context' ORDER BY ALL`,
  );
  return rows
    .filter((t) => !runIds || runIds.includes(t.run_id))
    .map((t) => ({ dataset: t.dataset, series: label(t), adaptType: 'all', n: 0, mean: Number.NaN, na: true }));
}
