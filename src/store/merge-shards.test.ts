/**
 * Merge's check of a sharded run's files (merge-shards.ts) on hand-made inputs: a whole set passes; each way a set can
 * be wrong — another config, commit, data, shard count, a shard twice, one unfinished, one missing, a whole run mixed
 * in — is refused with a line naming the file or the missing shard.
 */
import { describe, expect, it } from 'vitest';
import { checkShardSet, type ShardInput } from './merge-shards.ts';

const run = { configHash: 'c1', gitCommit: 'abc', datasetHashes: '{"locomo":"h"}', status: 'done' };
const shard = (index: number, count = 3, over: Partial<typeof run> = {}): ShardInput => ({
  file: `shard-${index}.duckdb`,
  shard: { index, count, from: '--shard', questions: 10 },
  run: { ...run, ...over },
});

describe('checkShardSet', () => {
  it('accepts every shard of one run, in any order, and files that are no shards at all', () => {
    expect(() => checkShardSet([shard(3), shard(1), shard(2)])).not.toThrow();
    expect(() => checkShardSet([{ file: 'a.duckdb', shard: null, run }])).not.toThrow();
  });
  it('names the missing shards', () => {
    expect(() => checkShardSet([shard(1), shard(3)])).toThrow(/shard 2\/3 missing/);
    expect(() => checkShardSet([shard(2, 4)])).toThrow(/shards 1\/4, 3\/4, 4\/4 missing/);
  });
  it('refuses another config, commit, data or shard count, naming the file', () => {
    expect(() => checkShardSet([shard(1), shard(2, 3, { configHash: 'c2' }), shard(3)])).toThrow(
      /shard-2\.duckdb.*another config/,
    );
    expect(() => checkShardSet([shard(1), shard(2), shard(3, 3, { gitCommit: 'def' })])).toThrow(/another commit/);
    expect(() => checkShardSet([shard(1), shard(2, 3, { datasetHashes: '{"locomo":"x"}' }), shard(3)])).toThrow(
      /another data hashes/,
    );
    expect(() => checkShardSet([shard(1), shard(2, 4), shard(3)])).toThrow(/shard-2\.duckdb.*of 3 shards/);
  });
  it('refuses a shard given twice, one not done, and a whole run among shards', () => {
    expect(() => checkShardSet([shard(1), shard(1), shard(2), shard(3)])).toThrow(/shard 1 again/);
    expect(() => checkShardSet([shard(1), shard(2, 3, { status: 'stopped' }), shard(3)])).toThrow(
      /shard 2\/3 is stopped, not done/,
    );
    expect(() => checkShardSet([shard(1), { file: 'whole.duckdb', shard: null, run }])).toThrow(
      /whole\.duckdb.*is not a shard/,
    );
  });
});
