/**
 * Sharding a sweep over machines: `--shard i/n` (1-based) takes the variations at positions i-1, i-1+n, … of the
 * variation ids sorted by code unit. The assignment depends only on the ids and n, so every machine computes the
 * same split, every variation lands in exactly one shard, and shard sizes differ by at most one.
 */
import { InputError } from '../../core/errors.ts';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/u.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new InputError(`"${text}" is not a shard; write i/n with 1 ≤ i ≤ n, e.g. 2/4`, '--shard');
  }
  return { index, count };
}

/** The ids of shard `shard` (all ids when no shard is given), in sorted order. */
export function shardIds(ids: readonly string[], shard?: Shard): string[] {
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (!shard) return sorted;
  return sorted.filter((_, i) => i % shard.count === shard.index - 1);
}
