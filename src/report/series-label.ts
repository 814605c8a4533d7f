/**
 * Series labels for tables and charts: the method id, extended with granularity and/or run id only when the file
 * holds several of them for one method, so two sweeps of a method never merge into one row or bar; and marked
 * "(offline)" (the `methods` table's `degraded`) when the method is a stand-in, so a stand-in is never read as the
 * real system in any table, chart legend, notebook or command.
 */
import type { ResultStore } from '../store/index.ts';

export interface SeriesKey {
  run_id: string;
  method: string;
  granularity: string;
}

/** `${run_id}\t${method}` → why the method is degraded (`offline`), for the degraded methods of a file. */
export type DegradedMarks = ReadonlyMap<string, string>;

export async function loadDegradedMarks(store: ResultStore): Promise<Map<string, string>> {
  const rows = await store.query<{ run_id: string; method: string; degraded: string }>(
    `SELECT run_id, method, degraded FROM methods WHERE degraded IS NOT NULL AND degraded <> ''`,
  );
  return new Map(rows.map((r) => [`${r.run_id}\t${r.method}`, r.degraded]));
}

/** ` (offline)` for a degraded method of that run, else ''. */
export function degradedMark(marks: DegradedMarks | undefined, runId: string, method: string): string {
  const d = marks?.get(`${runId}\t${method}`);
  return d ? ` (${d})` : '';
}

/** A method id with its mark: `reasoningbank (offline)`. */
export function markedMethod(marks: DegradedMarks | undefined, runId: string, method: string): string {
  return `${method}${degradedMark(marks, runId, method)}`;
}

/**
 * A labeller built from every variant that will be shown, so one row always gets one label. `runLabel` names a run
 * in the label when a method ran in several (default: its run id; the HTML report passes a sweep's variation in
 * words, `adaptmr (w/o temporal strategy)`).
 */
export function seriesLabeller(
  rows: readonly SeriesKey[],
  marks?: DegradedMarks,
  runLabel: (runId: string) => string = (id) => id,
): (r: SeriesKey) => string {
  const variants = new Map<string, { runs: Set<string>; grans: Set<string> }>();
  for (const r of rows) {
    const v = variants.get(r.method) ?? { runs: new Set(), grans: new Set() };
    v.runs.add(r.run_id);
    v.grans.add(r.granularity);
    variants.set(r.method, v);
  }
  return (r) => {
    const v = variants.get(r.method);
    const parts = [
      v && v.grans.size > 1 ? r.granularity : null,
      v && v.runs.size > 1 ? runLabel(r.run_id) : null,
    ].filter(Boolean);
    const mark = degradedMark(marks, r.run_id, r.method);
    return parts.length > 0 ? `${r.method} (${parts.join(', ')})${mark}` : `${r.method}${mark}`;
  };
}

/** Method id → degraded reason, over every run of the file (for rows that carry a method id only, e.g. verdicts). */
export async function loadMethodMarks(store: ResultStore): Promise<Map<string, string>> {
  const rows = await store.query<{ method: string; degraded: string }>(
    `SELECT DISTINCT method, degraded FROM methods WHERE degraded IS NOT NULL AND degraded <> '' ORDER BY ALL`,
  );
  return new Map(rows.map((r) => [r.method, r.degraded]));
}
