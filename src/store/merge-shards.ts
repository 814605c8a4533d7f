/**
 * Merge's check of a sharded run's files (`adaptmr run --shard i/n`): the inputs are either all shards or none; the
 * shards are of one run — the same config, commit and data hashes — and one shard count; every shard 1..n is given
 * once and finished. A wrong set is refused before anything is written, naming the file or the missing shard.
 */
import { InputError } from '../core/errors.ts';
import { type ShardMeta, shardOf } from './meta.ts';
import type { ResultStore } from './types.ts';

export interface ShardInput {
  file: string;
  shard: ShardMeta | null;
  /** The run's identity: config hash, commit and data hashes, and its status. */
  run: { configHash: string; gitCommit: string | null; datasetHashes: string; status: string } | undefined;
}

/** What merge needs to know of one input about sharding. */
export async function readShardInput(store: ResultStore, file: string): Promise<ShardInput> {
  const shard = await shardOf(store);
  const runs = await store.query<{
    config_hash: string;
    git_commit: string | null;
    dataset_hashes: string;
    status: string;
  }>('SELECT config_hash, git_commit, dataset_hashes, status FROM runs ORDER BY run_id');
  if (shard && runs.length !== 1)
    throw new InputError(`a shard file must hold one run, this one holds ${runs.length}`, file);
  const r = runs[0];
  return {
    file,
    shard,
    run: r && {
      configHash: r.config_hash,
      gitCommit: r.git_commit,
      datasetHashes: r.dataset_hashes,
      status: r.status,
    },
  };
}

const SAME: [keyof NonNullable<ShardInput['run']>, string][] = [
  ['configHash', 'config'],
  ['gitCommit', 'commit'],
  ['datasetHashes', 'data hashes'],
];

/** Refuses a set of inputs that is not every shard of one run (no-op when no input is a shard). */
export function checkShardSet(inputs: readonly ShardInput[]): void {
  const shards = inputs.filter((i) => i.shard !== null);
  if (shards.length === 0) return;
  const whole = inputs.find((i) => i.shard === null);
  if (whole)
    throw new InputError(`is not a shard, but ${shards[0]!.file} is; merge the shards of one run alone`, whole.file);
  const first = shards[0]!;
  const byIndex = new Map<number, string>();
  for (const s of shards) {
    if (s.shard!.count !== first.shard!.count)
      throw new InputError(
        `is shard ${s.shard!.index}/${s.shard!.count}, but ${first.file} is of ${first.shard!.count} shards`,
        s.file,
      );
    for (const [field, what] of SAME) {
      if (s.run?.[field] !== first.run?.[field])
        throw new InputError(`was run with another ${what} than ${first.file}; merge shards of one run`, s.file);
    }
    const twice = byIndex.get(s.shard!.index);
    if (twice !== undefined) throw new InputError(`is shard ${s.shard!.index} again (so is ${twice})`, s.file);
    byIndex.set(s.shard!.index, s.file);
    if (s.run?.status !== 'done')
      throw new InputError(
        `shard ${s.shard!.index}/${s.shard!.count} is ${s.run?.status ?? 'empty'}, not done; run it again (it resumes), then merge`,
        s.file,
      );
  }
  const count = first.shard!.count;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new InputError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: merge all ${count} shards of the run`,
      'merge',
    );
}
