/**
 * The run-level count of memory-server searches that cited unit ids never ingested (baselines/memory-server/render.ts
 * notes them as `unknownUnitIds`): such ids are not ranked, so recall counts only the ids the server got right, and
 * the run says so once per method instead of dropping them silently.
 */
import type { RetrievalNotes } from '../../core/types.ts';
import type { ResultStore } from '../../store/types.ts';

export async function unknownUnitWarnings(store: ResultStore, runId: string): Promise<string[]> {
  const rows = await store.query<{ method: string; notes: string }>(
    `SELECT method, notes FROM retrievals WHERE run_id = ? AND notes LIKE '%"unknownUnitIds"%'`,
    [runId],
  );
  const byMethod = new Map<string, { searches: number; ids: number }>();
  for (const r of rows) {
    const n = (JSON.parse(r.notes) as RetrievalNotes).unknownUnitIds as unknown; // checked: a stored file is data
    if (typeof n !== 'number' || n <= 0) continue;
    const t = byMethod.get(r.method) ?? { searches: 0, ids: 0 };
    t.searches++;
    t.ids += n;
    byMethod.set(r.method, t);
  }
  return [...byMethod].map(
    ([method, t]) =>
      `warning: ${method}: ${t.searches} search(es) cited ${t.ids} unit id(s) never ingested; they are not ranked (recall counts only known units) — check the server's unit_ids`,
  );
}
