/**
 * Series labels for tables and charts: the method id, extended with granularity and/or run id only when the file
 * holds several of them for one method, so two sweeps of a method never merge into one row or bar.
 */

export interface SeriesKey {
  run_id: string;
  method: string;
  granularity: string;
}

/** A labeller built from every variant that will be shown, so one row always gets one label. */
export function seriesLabeller(rows: readonly SeriesKey[]): (r: SeriesKey) => string {
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
