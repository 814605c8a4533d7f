/**
 * Which experiment a results file holds, for merge's "same experiment" check. A sweep records its name in the
 * `meta` table (key `experiment`) of every variation's file, since each variation is a run of its own name; a file
 * written by `adaptmr run` has no such key and is identified by the names of its runs.
 */
import { openResultStore } from './open-store.ts';
import type { ResultStore } from './types.ts';

export const EXPERIMENT_META_KEY = 'experiment';

/** The experiment name of an open store, or null when it holds no run and no name. */
export async function experimentOf(store: ResultStore): Promise<string | null> {
  const [meta] = await store.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [EXPERIMENT_META_KEY]);
  if (meta) return meta.value;
  const runs = await store.query<{ name: string }>('SELECT DISTINCT name FROM runs ORDER BY name');
  return runs.length > 0 ? runs.map((r) => r.name).join(', ') : null;
}

/** Records `name` as the experiment of the results file at `path` (created when missing). */
export async function tagExperiment(path: string, name: string): Promise<void> {
  const store = await openResultStore(path);
  try {
    await store.query('INSERT OR REPLACE INTO meta VALUES ($1, $2)', [EXPERIMENT_META_KEY, name]);
  } finally {
    await store.close();
  }
}
