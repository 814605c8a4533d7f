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
  /** Oracle / upper-bound method (the `methods` table); tables and charts show its label marked (palette.ts). */
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
  upper_bound: boolean | null;
}

export async function loadTypeMeans(store: ResultStore, q: TypeMeanQuery): Promise<TypeMeanRow[]> {
  const rows = await store.query<ViewRow>(
    `SELECT s.run_id, s.dataset, s.method, s.granularity, s.adapt_type, s.n, s.mean, m.upper_bound
     FROM scores_by_type s LEFT JOIN methods m ON m.run_id = s.run_id AND m.method = s.method
     WHERE s.native_type = 'all' AND s.metric = $1 AND s.level = $2 AND s.k IS NOT DISTINCT FROM $3
     ORDER BY s.dataset, s.method, s.granularity, s.run_id, s.adapt_type`,
    [q.metric, q.level, q.k],
  );
  const label = q.label ?? seriesLabeller(rows);
  return rows.map((r) => {
    const upperBound = r.upper_bound === true;
    return { dataset: r.dataset, series: label(r), adaptType: r.adapt_type, n: r.n, mean: r.mean, upperBound };
  });
}
