/**
 * Paired sign-flip permutation test of a mean difference (Fisher 1935, "The Design of Experiments", §21; Good 2005,
 * "Permutation, Parametric and Bootstrap Tests of Hypotheses", §3.6.2). Under H0 (A and B exchangeable on each
 * unit) the sign of every unit's difference is a fair coin, so the null distribution of the mean difference is
 * that of Σ ±D_u / N. Units are questions, or whole conversations for clustered data — flipping a cluster's summed
 * difference at once is the Rademacher wild cluster bootstrap of Cameron, Gelbach & Miller (2008), valid when
 * questions of one conversation are correlated.
 *
 * Exact (all 2^m sign vectors) when m ≤ EXACT_MAX units have a non-zero difference (units with D = 0 do not move
 * the statistic, so enumerating only the others gives the same p as enumerating all); otherwise Monte Carlo with
 * the observed statistic counted as one draw, p = (#{|T*| ≥ |T|}… + 1)/(R + 1). Two-sided p and the tie tolerance
 * are scipy.stats.permutation_test's (permutation_type='samples'): p = min(1, 2·min(P[T* ≤ T], P[T* ≥ T])) with a
 * relative tolerance of 100 ulp on T.
 */
import { randomSignWords } from './resample.ts';

export const EXACT_MAX = 16;

export interface SignFlipResult {
  statistic: number;
  pValue: number;
  exact: boolean;
  /** Null draws (2^m when exact). */
  draws: number;
}

/** `diffs`: per unit, the summed difference A − B; `n`: the number of questions the mean divides by. */
export function signFlipTest(diffs: ArrayLike<number>, n: number, resamples: number, seed: number): SignFlipResult {
  const nz = Array.from(diffs).filter((d) => d !== 0);
  const total = Array.from(diffs).reduce((s, d) => s + d, 0);
  const statistic = total / n;
  if (nz.length === 0) return { statistic, pValue: 1, exact: true, draws: 1 };
  const gamma = Math.abs(statistic * Number.EPSILON * 100);
  let less = 0;
  let greater = 0;
  const count = (t: number): void => {
    if (t <= statistic + gamma) less++;
    if (t >= statistic - gamma) greater++;
  };
  const m = nz.length;
  if (m <= EXACT_MAX) {
    const draws = 2 ** m;
    for (let mask = 0; mask < draws; mask++) {
      let s = 0;
      for (let j = 0; j < m; j++) s += mask & (1 << j) ? -nz[j]! : nz[j]!;
      count(s / n);
    }
    return { statistic, pValue: Math.min(1, (2 * Math.min(less, greater)) / draws), exact: true, draws };
  }
  const words = Math.ceil(m / 32);
  const signs = randomSignWords(m, resamples, seed);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let j = 0; j < m; j++) s += signs[r * words + (j >> 5)]! & (1 << (j & 31)) ? -nz[j]! : nz[j]!;
    count(s / n);
  }
  // The observed arrangement is one of the possible ones: counted once on each side (scipy's adjustment).
  const p = (2 * Math.min(less + 1, greater + 1)) / (resamples + 1);
  return { statistic, pValue: Math.min(1, p), exact: false, draws: resamples };
}
