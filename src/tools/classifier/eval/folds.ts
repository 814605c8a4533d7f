/**
 * Seeded, stratified k-fold assignment (as scikit-learn's StratifiedKFold with shuffle): within each gold type the
 * questions are shuffled with a pure-rand generator and dealt round-robin to folds, so every fold has each type in
 * proportion and the same seed gives the same folds.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { shuffleInPlace } from '../train/optimiser.ts';

/** fold[i] ∈ 0..k-1 for item i. Items are grouped by `strata[i]`; group order is the sorted stratum names. */
export function stratifiedFolds(strata: readonly string[], k: number, seed: number): number[] {
  if (!Number.isInteger(k) || k < 2) throw new Error(`folds must be an integer ≥ 2, got ${k}`);
  if (k > strata.length) throw new Error(`folds (${k}) exceed the number of questions (${strata.length})`);
  const rng = xoroshiro128plus(seed);
  const groups = new Map<string, number[]>();
  strata.forEach((s, i) => groups.set(s, [...(groups.get(s) ?? []), i]));
  const fold = new Array<number>(strata.length).fill(0);
  let next = 0; // continue dealing across groups so fold sizes differ by at most one
  for (const key of [...groups.keys()].sort()) {
    const idx = groups.get(key) ?? [];
    shuffleInPlace(idx, rng);
    for (const i of idx) {
      fold[i] = next;
      next = (next + 1) % k;
    }
  }
  return fold;
}
