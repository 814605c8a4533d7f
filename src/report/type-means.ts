/**
 * Reads per-AdaptMR-type means for one metric/level/k from the `scores_by_type` view (rows with native_type =
 * 'all': per type, plus adapt_type = 'all' for the official overall average). Each row gets a `series` label: the
 * method name, extended with granularity and/or run id only when the file holds several for one method, so two
 * sweeps of a method never merge into one bar.
 */
import type { ResultStore } from '../store/index.ts';

export interface TypeMeanQuery {
  metric: string;
  level: string;
  /** null selects QA metrics, whose k is NULL. */
  k: number | null;
}

export interface TypeMeanRow {
  dataset: string;
  /** Method label shown in tables and charts. */
  series: string;
  adaptType: string;
  n: number;
  mean: number;
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

function labeller(rows: readonly ViewRow[]): (r: ViewRow) => string {
  const variants = new Map<string, { runs: Set<string>; grans: Set<string> }>();
  for (const r of rows) {
    const v = variants.get(r.method) ?? { runs: new Set(), grans: new Set() };
    v.runs.add(r.run_id);
    v.grans.add(r.granularity);
    variants.set(r.method, v);
  }
  return (r) => {
    const v = variants.get(r.method);
    const parts = [v && v.grans.size > 1 ? r.granularity : null, v && v.runs.size > 1 ? r.run_id : null].filter(Boolean);
    return parts.length > 0 ? `${r.method} (${parts.join(', ')})` : r.method;
  };
}

export async function loadTypeMeans(store: ResultStore, q: TypeMeanQuery): Promise<TypeMeanRow[]> {
  const rows = await store.query<ViewRow>(
    `SELECT run_id, dataset, method, granularity, adapt_type, n, mean FROM scores_by_type
     WHERE native_type = 'all' AND metric = $1 AND level = $2 AND k IS NOT DISTINCT FROM $3
     ORDER BY dataset, method, granularity, run_id, adapt_type`,
    [q.metric, q.level, q.k],
  );
  const label = labeller(rows);
  return rows.map((r) => ({ dataset: r.dataset, series: label(r), adaptType: r.adapt_type, n: r.n, mean: r.mean }));
}
