/**
 * Seeded resampling plans shared by every bootstrap and Monte Carlo test: the same (size, seed) always gives the
 * same draws, on any machine and in any order of computation, so recomputing the statistics of a results file is
 * deterministic and idempotent. The generator is pure-rand's xoroshiro128+ with the draws of its unbiased
 * `uniformInt`, as the data layer's seeded sampling uses (src/data/sample.ts). Plans are plain typed arrays, so one
 * plan serves every cell (method, metric, k) of the same question set without being drawn again.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { sha256 } from '../../core/hash.ts';

/** A 32-bit seed from a base seed and any key (e.g. the question set of a cell). */
export function seedFor(seed: number, key: string): number {
  return Number.parseInt(sha256(`${seed}:${key}`).slice(0, 8), 16) | 0;
}

/**
 * B bootstrap draws of n indices in [0, n), row-major: draw b is `plan[b*n … b*n+n)` (Efron & Tibshirani 1993,
 * "An Introduction to the Bootstrap", §6.2: sampling with replacement from the n observed units).
 */
export function resampleIndices(n: number, resamples: number, seed: number): Uint32Array {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`resample size must be a positive integer, got ${n}`);
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  const rng = xoroshiro128plus(seed | 0);
  const out = new Uint32Array(n * resamples);
  // pure-rand's `uniformInt(rng, 0, n − 1)` for n ≤ 2³² (its uniformIntInternal, pure-rand 8): shift the 32-bit draw
  // to [0, 2³²), reject draws at or above the largest multiple of n, reduce mod n. Written out because the library
  // reduces with a floating-point `%` (an fmod call per draw): here `d − ⌊d / n⌋·n`, exact for d < 2³² (⌊d / n⌋ cannot
  // round up to the next integer: 1/n is far above half an ulp of d / n), draws the same indices ~3× faster — a
  // 2,000-resample plan of 500 questions in ~7 ms instead of ~20. stats.test.ts checks it against the library.
  const limit = n > 2 ? Math.floor(0x100000000 / n) * n : 0x100000000;
  for (let i = 0; i < out.length; i++) {
    let d = rng.next() + 0x80000000;
    while (d >= limit) d = rng.next() + 0x80000000;
    out[i] = d - Math.floor(d / n) * n;
  }
  return out;
}

/** R draws of m random signs (+1 / −1) as bits: bit j of `signs[r]` set = flip unit j (m ≤ 32 per word). */
export function randomSignWords(m: number, draws: number, seed: number): Int32Array {
  const words = Math.ceil(m / 32);
  const rng = xoroshiro128plus(seed | 0);
  const out = new Int32Array(words * draws);
  for (let i = 0; i < out.length; i++) out[i] = rng.next();
  return out;
}

/** Memoises plans by (n, resamples, seed): cells with the same question set share one plan. */
export class PlanCache {
  private readonly plans = new Map<string, Uint32Array>();
  constructor(private readonly maxEntries = 256) {}

  get(n: number, resamples: number, seed: number): Uint32Array {
    const key = `${n}:${resamples}:${seed}`;
    let plan = this.plans.get(key);
    if (!plan) {
      if (this.plans.size >= this.maxEntries) this.plans.delete(this.plans.keys().next().value!);
      plan = resampleIndices(n, resamples, seed);
      this.plans.set(key, plan);
    }
    return plan;
  }
}
