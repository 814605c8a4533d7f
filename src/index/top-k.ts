/**
 * Ranking helpers shared by the index and the strategies: best-first order of a score array with a documented,
 * deterministic tie order.
 *
 * Ties: `position` (default) puts the earlier corpus position first (a stable descending sort). The official
 * LongMemEval scripts rank with `np.argsort(scores)[::-1]`, which reverses whatever order argsort gives ties. For
 * arrays of ≤ 16 elements numpy's default introsort is an insertion sort (stable), so ties come out *later position
 * first*; for larger arrays the order of ties is unspecified (introsort, or SIMD sorts on newer numpy/CPUs). `reverse`
 * (later position first) is therefore the closest deterministic approximation of the official order.
 */
import type { MemoryUnit, ScoredUnit } from '../core/types.ts';

export type TieBreak = 'position' | 'reverse';

export interface RankOptions {
  tieBreak?: TieBreak;
  /** Drop entries whose score is exactly 0 (e.g. BM25 units sharing no term with the query). */
  dropZero?: boolean;
}

/** Indices of the `k` best scores, best first. NaN scores are ranked last. */
export function rankIndices(scores: ArrayLike<number>, k: number, options: RankOptions = {}): number[] {
  const reverse = options.tieBreak === 'reverse';
  const idx: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (options.dropZero && s === 0) continue;
    idx.push(i);
  }
  const key = (i: number): number => {
    const s = scores[i]!;
    return Number.isNaN(s) ? -Infinity : s;
  };
  idx.sort((a, b) => key(b) - key(a) || (reverse ? b - a : a - b));
  return idx.slice(0, Math.max(0, k));
}

/** The `k` best units with their scores, best first (`units` aligned with `scores`). */
export function topK(
  scores: ArrayLike<number>,
  k: number,
  units: readonly MemoryUnit[],
  options: RankOptions = {},
): ScoredUnit[] {
  if (scores.length !== units.length) {
    throw new Error(`topK: ${scores.length} scores for ${units.length} units`);
  }
  return rankIndices(scores, k, options).map((i) => ({ unit: units[i]!, score: scores[i]! }));
}
