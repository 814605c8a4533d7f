/**
 * The mean and the median, written once (left-to-right sums, so every caller gets the same last bit): NaN for no
 * values; the median of an even count is the mean of the two middle values.
 */

export function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return xs.length === 0 ? Number.NaN : s / xs.length;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
