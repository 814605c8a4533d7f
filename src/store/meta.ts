/**
 * Which experiment a results file holds, for merge's "same experiment" check. A sweep records its name in the
 * `meta` table (key `experiment`) of every variation's file, since each variation is a run of its own name; a file
 * written by `adaptmr run` has no such key and is identified by the names of its runs.
 */
import { openResultStore } from './open-store.ts';
import type { ResultStore } from './types.ts';

export const EXPERIMENT_META_KEY = 'experiment';
/** Set in a shard's file (`adaptmr run --shard i/n`): it holds part of a run; `adaptmr merge` makes the whole. */
export const SHARD_META_KEY = 'shard';

export interface ShardMeta {
  index: number;
  count: number;
  /** Where the index came from (`--shard 2/4`, `SLURM_ARRAY_TASK_ID=…`). */
  from: string;
  /** Questions of this shard. */
  questions: number;
}

/** The shard a results file holds, or null for a whole run (or a merged one). */
export async function shardOf(store: ResultStore): Promise<ShardMeta | null> {
  const [meta] = await store.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [SHARD_META_KEY]);
  return meta ? (JSON.parse(meta.value) as ShardMeta) : null;
}

/** Marks an open results file as one shard of a run. */
export async function tagShard(store: ResultStore, shard: ShardMeta): Promise<void> {
  await store.query('INSERT OR REPLACE INTO meta VALUES ($1, $2)', [SHARD_META_KEY, JSON.stringify(shard)]);
}

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
