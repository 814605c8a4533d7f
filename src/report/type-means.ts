/**
 * Reads per-AdaptMR-type means for one metric/level/k from the `scores_by_type` view (rows with native_type =
 * 'all': per type, plus adapt_type = 'all' for the official overall average). Each row gets a `series` label
 * (series-label.ts).
 */
import type { ResultStore } from '../store/index.ts';
import { seriesLabeller, type SeriesKey } from './series-label.ts';

export interface TypeMeanQuery {
  metric: string;
  level: string;
  /** null selects QA metrics, whose k is NULL. */
  k: number | null;
  /** Labels series with a labeller shared with other tables (default: one built from these rows). */
  label?: (r: SeriesKey) => string;
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
}

interface ViewRow {
  run_id: string;
  dataset: string;
  method: string;
  granularity: string;
  adapt_type: string;
  n: number;
  mean: number;
}

export async function loadTypeMeans(store: ResultStore, q: TypeMeanQuery): Promise<TypeMeanRow[]> {
  const rows = await store.query<ViewRow>(
    `SELECT run_id, dataset, method, granularity, adapt_type, n, mean FROM scores_by_type
     WHERE native_type = 'all' AND metric = $1 AND level = $2 AND k IS NOT DISTINCT FROM $3
     ORDER BY dataset, method, granularity, run_id, adapt_type`,
    [q.metric, q.level, q.k],
  );
  const label = q.label ?? seriesLabeller(rows);
  return rows.map((r) => ({ dataset: r.dataset, series: label(r), adaptType: r.adapt_type, n: r.n, mean: r.mean }));
}
