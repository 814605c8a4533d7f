/**
 * The mark a report puts on a run that read dataset files differing from their lock file on purpose
 * (`adaptmr run --allow-unlocked`, recorded under `unlocked` in the run's dataset hashes): its numbers are not
 * those of the pinned data, so every report form says so before any table.
 */
import type { ResultStore } from '../store/index.ts';

/** `<dataset>: what differs` of one run's stored dataset hashes (empty when every file matched its lock). */
export function unlockedOf(datasetHashes: unknown): string[] {
  if (typeof datasetHashes !== 'object' || datasetHashes === null) return [];
  return Object.entries(datasetHashes).flatMap(([dataset, h]) => {
    const u = (h as { unlocked?: unknown } | null)?.unlocked;
    return Array.isArray(u) && u.length > 0
      ? [`${dataset}: ${u.length} file(s) (${String(u[0])}${u.length > 1 ? ', …' : ''})`]
      : [];
  });
}

/** One line per run of the file that ran on unlocked data, or null when none did. */
export async function unlockedNote(store: ResultStore): Promise<string | null> {
  const rows = await store.query<{ run_id: string; dataset_hashes: string | null }>(
    'SELECT run_id, dataset_hashes FROM runs ORDER BY started_at',
  );
  const lines = rows.flatMap((r) => {
    let parsed: unknown = null;
    try {
      parsed = r.dataset_hashes ? JSON.parse(r.dataset_hashes) : null;
    } catch {
      return [];
    }
    const u = unlockedOf(parsed);
    return u.length > 0 ? [`  run ${r.run_id}: ${u.join('; ')}`] : [];
  });
  if (lines.length === 0) return null;
  return `WARNING — UNLOCKED DATA: these runs read dataset files that differ from the lock file (--allow-unlocked); their numbers are not those of the pinned datasets:\n${lines.join('\n')}`;
}
