/**
 * Before a report: bring the file's statistics up to date (recomputed only when its rows changed; see
 * src/store/stats-tables.ts). Needs a writable open; when the file is locked by a running job or read-only, the
 * report goes on with whatever statistics the file holds and says so.
 */
import { existsSync } from 'node:fs';
import { errorMessage } from '../core/errors.ts';
import { openResultStore, refreshStats } from '../store/index.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../plan-experiments/registry.ts';

/** A note for the report, or null when the statistics are current. */
export async function refreshFileStats(file: string): Promise<string | null> {
  // A writable open would create a missing file; the report's read-only open then says it is not there.
  if (!existsSync(file)) return null;
  try {
    const store = await openResultStore(file);
    try {
      await refreshStats(store, PLAN_EXPERIMENT_REGISTRY);
      return null;
    } finally {
      await store.close();
    }
  } catch (err) {
    return `note: statistics not refreshed (${errorMessage(err)}); CIs and comparisons shown are those stored, if any`;
  }
}
