/**
 * Wilcoxon signed-rank test of paired differences (F. Wilcoxon 1945, "Individual comparisons by ranking methods",
 * Biometrics Bulletin 1(6):80–83), zeros dropped (Wilcoxon's own rule, scipy's zero_method='wilcox'), ties given
 * average ranks. Two ways to the p-value, both as scipy.stats.wilcoxon computes them:
 *   - exact: the null distribution of R+ over all 2^n sign assignments (a subset-sum count), valid without ties
 *     and zeros; two-sided p = min(1, 2·min(P[R+ ≥ r], P[R+ ≤ r]));
 *   - asymptotic: z = (R+ − n(n+1)/4) / σ with σ² = (n(n+1)(2n+1) − Σ(t³ − t)/2)/24 (tie correction; no continuity
 *     correction, scipy's default), p = 2Φ(−|z|).
 * `auto` takes exact for n ≤ 50 without ties or zeros and asymptotic otherwise (scipy would run a permutation test
 * for n ≤ 13 with ties; this harness uses sign-flip.ts for that).
 */
import { normalCdf } from './normal.ts';

export type WilcoxonMethod = 'auto' | 'exact' | 'asymptotic';

export interface WilcoxonResult {
  /** R+, the sum of ranks of positive differences. */
  statistic: number;
  pValue: number;
  method: 'exact' | 'asymptotic';
  /** Non-zero differences ranked. */
  n: number;
}

/** Average ranks of |d| (1-based) and the tie-group sizes. */
function rankAbs(d: readonly number[]): { ranks: number[]; ties: number[] } {
  const order = d.map((v, i) => ({ a: Math.abs(v), i })).sort((x, y) => x.a - y.a);
  const ranks = new Array<number>(d.length);
  const ties: number[] = [];
  for (let s = 0; s < order.length; ) {
    let e = s;
    while (e + 1 < order.length && order[e + 1]!.a === order[s]!.a) e++;
    const r = (s + e + 2) / 2;
    for (let j = s; j <= e; j++) ranks[order[j]!.i] = r;
    ties.push(e - s + 1);
    s = e + 1;
  }
  return { ranks, ties };
}

/** P[R+ = r] counts for r = 0…n(n+1)/2 without ties (number of subsets of {1…n} summing to r). */
function exactCounts(n: number): Float64Array {
  const max = (n * (n + 1)) / 2;
  const c = new Float64Array(max + 1);
  c[0] = 1;
  for (let k = 1; k <= n; k++) for (let r = max; r >= k; r--) c[r]! += c[r - k]!;
  return c;
}

export function wilcoxonSignedRank(diffs: ArrayLike<number>, method: WilcoxonMethod = 'auto'): WilcoxonResult {
  const d = Array.from(diffs).filter((v) => v !== 0);
  const hadZeros = d.length < diffs.length;
  const n = d.length;
  if (n === 0) return { statistic: 0, pValue: 1, method: 'exact', n: 0 };
  const { ranks, ties } = rankAbs(d);
  let rPlus = 0;
  for (let i = 0; i < n; i++) if (d[i]! > 0) rPlus += ranks[i]!;
  const hasTies = ties.some((t) => t > 1);
  const useExact = method === 'exact' || (method === 'auto' && n <= 50 && !hasTies && !hadZeros);
  if (useExact) {
    const counts = exactCounts(n);
    const total = 2 ** n;
    let cdf = 0;
    let sf = 0;
    // Non-integral R+ (ties) is rounded conservatively, as scipy does.
    const up = Math.ceil(rPlus);
    const down = Math.floor(rPlus);
    for (let r = 0; r < counts.length; r++) {
      if (r <= up) cdf += counts[r]!;
      if (r >= down) sf += counts[r]!;
    }
    return { statistic: rPlus, pValue: Math.min(1, (2 * Math.min(cdf, sf)) / total), method: 'exact', n };
  }
  const mean = (n * (n + 1)) / 4;
  const tieCorrection = ties.reduce((s, t) => s + t ** 3 - t, 0);
  const se = Math.sqrt((n * (n + 1) * (2 * n + 1) - tieCorrection / 2) / 24);
  const z = (rPlus - mean) / se;
  return { statistic: rPlus, pValue: Math.min(1, 2 * normalCdf(-Math.abs(z))), method: 'asymptotic', n };
}
