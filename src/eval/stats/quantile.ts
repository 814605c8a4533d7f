/**
 * Sample quantile with linear interpolation between order statistics (Hyndman & Fan 1996, "Sample quantiles in
 * statistical packages", definition 7) — numpy's and scipy.stats.quantile's default, which scipy.stats.bootstrap
 * uses to read its interval off the bootstrap distribution.
 */
export function sortedCopy(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** p ∈ [0, 1] of an ascending array; NaN for an empty array or a NaN p. */
export function quantileSorted(sorted: Float64Array, p: number): number {
  const n = sorted.length;
  if (n === 0 || Number.isNaN(p)) return Number.NaN;
  const h = (n - 1) * Math.min(1, Math.max(0, p));
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
