/**
 * The update strategy's embedding-threshold clustering (its `similarity: cosine | quantile` options): the plan's
 * cosine ≥ 0.85 rule, and the scale-free "top 1 % most similar pairs of the haystack" rule that replaced it for the
 * offline SIF embedder (whose session cosines have a median ≈ 0.9, so 0.85 merged every candidate). Both are kept for
 * configs that name them; the default is now the same-topic test of same-topic.ts, because on the plan's own example
 * both rules merged memories of different topics.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { dot } from '../index/vectors.ts';

/** Sorted pairwise cosines of the haystack's unit vectors (cached per vector array; a turn-level LoCoMo haystack
 * has ~180k pairs, computed once and shared by its ~200 questions). Above MAX_PAIRS pairs (LongMemEval M at turn
 * level has ~10⁸) a fixed-seed uniform sample of MAX_PAIRS pairs estimates the quantile instead, deterministically. */
const pairCache = new WeakMap<readonly Float32Array[], Float64Array>();
export const MAX_PAIRS = 1_000_000;
export function pairwiseCosines(vectors: readonly Float32Array[], maxPairs = MAX_PAIRS): Float64Array {
  const hit = maxPairs === MAX_PAIRS ? pairCache.get(vectors) : undefined;
  if (hit) return hit;
  const n = vectors.length;
  const total = (n * (n - 1)) / 2;
  let out: Float64Array;
  if (total <= maxPairs) {
    out = new Float64Array(total);
    let p = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out[p++] = dot(vectors[i]!, vectors[j]!);
  } else {
    out = new Float64Array(maxPairs);
    const rng = xoroshiro128plus(0);
    for (let p = 0; p < maxPairs; p++) {
      const i = uniformInt(rng, 0, n - 1);
      let j = uniformInt(rng, 0, n - 2);
      if (j >= i) j++;
      out[p] = dot(vectors[i]!, vectors[j]!);
    }
  }
  out.sort();
  if (maxPairs === MAX_PAIRS) pairCache.set(vectors, out);
  return out;
}

/** The q-quantile of sorted values, linear interpolation (numpy.quantile default); undefined when empty. */
export function sortedQuantile(sorted: Float64Array, q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Leader clustering of ranked candidates (see header); returns clusters of candidate positions, leader first. */
export function leaderClusters(vectors: readonly Float32Array[], threshold: number): number[][] {
  const clusters: number[][] = [];
  for (let i = 0; i < vectors.length; i++) {
    const home = clusters.find((c) => dot(vectors[c[0]!]!, vectors[i]!) >= threshold);
    if (home) home.push(i);
    else clusters.push([i]);
  }
  return clusters;
}
