/**
 * The minimum detectable effect (MDE) of a paired comparison: the smallest true difference the sample would detect
 * with the given power (80%) at the given two-sided α, so "not established" can be read as "the sample could not
 * have shown an effect this small" rather than "there is none".
 *
 * Binary scores (recall_any, recall_all, judged accuracy — McNemar's design): Connor's sample size for the paired
 * binary design (R. J. Connor 1987, "Sample size for testing differences in proportions for the paired-sample
 * design", Biometrics 43(1):207–211, eq. 2),
 *     n = ( z_{1−α/2} √ψ + z_{1−β} √(ψ − δ²) )² / δ²,
 * with δ = p₁₀ − p₀₁ the difference and ψ = p₁₀ + p₀₁ the share of discordant pairs, solved here for δ given n and
 * the observed ψ̂. A difference cannot exceed the discordant share, so ψ = max(ψ̂, δ): with no discordant pair
 * observed the MDE is the one-directional case ψ = δ, n δ = (z_{1−α/2} + z_{1−β} √(1 − δ))².
 *
 * Continuous scores (nDCG, F1): the normal-approximation MDE of a paired mean difference,
 *     δ = (z_{1−α/2} + z_{1−β}) · σ_d / √n    (e.g. Cohen 1988, Statistical Power Analysis, ch. 2),
 * σ_d the observed standard deviation of the differences.
 *
 * Clustered questions (LoCoMo: ~200 questions share a conversation): n is replaced by the effective n = n / deff,
 * deff = the variance of the mean difference under conversation resampling over its variance with independent
 * questions (Kish's design effect, L. Kish 1965, Survey Sampling §5.4), never below 1.
 */
import { normalQuantile } from '../stats/normal.ts';

export interface MdeOptions {
  /** Two-sided level; a verdict needing p_holm < 0.05 in a family of m uses 0.05 / m (Holm's first step). */
  alpha: number;
  power: number;
}

export const MDE_DEFAULTS: MdeOptions = { alpha: 0.05, power: 0.8 };

/**
 * Connor 1987 solved for δ: the smallest difference with the given power at n pairs and discordant share ψ̂.
 * null when even δ = 1 is not detectable (n too small).
 */
export function mdePairedBinary(n: number, discordant: number, o: MdeOptions = MDE_DEFAULTS): number | null {
  if (!(n > 0)) return null;
  const za = normalQuantile(1 - o.alpha / 2);
  const zb = normalQuantile(o.power);
  // f(δ) = n δ² − (z_a √ψ + z_b √(ψ − δ²))², ψ = max(ψ̂, δ): increasing in δ where it crosses 0.
  const f = (d: number): number => {
    const psi = Math.max(discordant, d);
    const rhs = za * Math.sqrt(psi) + zb * Math.sqrt(Math.max(0, psi - d * d));
    return n * d * d - rhs * rhs;
  };
  if (f(1) < 0) return null;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < 0) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Connor's n for a difference δ at discordant share ψ (the forward formula; tests check the inverse against it). */
export function connorSampleSize(delta: number, discordant: number, o: MdeOptions = MDE_DEFAULTS): number {
  const za = normalQuantile(1 - o.alpha / 2);
  const zb = normalQuantile(o.power);
  const rhs = za * Math.sqrt(discordant) + zb * Math.sqrt(discordant - delta * delta);
  return (rhs * rhs) / (delta * delta);
}

/** Normal-approximation MDE of a paired mean difference with standard deviation `sd` of the differences. */
export function mdePairedNormal(n: number, sd: number, o: MdeOptions = MDE_DEFAULTS): number | null {
  if (!(n > 0)) return null;
  return ((normalQuantile(1 - o.alpha / 2) + normalQuantile(o.power)) * sd) / Math.sqrt(n);
}

/**
 * Kish's design effect of the mean difference: the cluster-robust variance of the mean (conversations as units,
 * ratio estimator) over the variance with independent pairs; 1 without clusters, with one cluster, or with no
 * variation, and never below 1 (clustering is not allowed to make the MDE look smaller than independence would).
 */
export function designEffect(d: ArrayLike<number>, clusters: readonly string[] | undefined): number {
  const n = d.length;
  if (!clusters || n < 2) return 1;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += d[i]! / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (d[i]! - mean) ** 2;
  const varIid = ss / (n - 1) / n;
  if (!(varIid > 0)) return 1;
  const resid = new Map<string, number>();
  for (let i = 0; i < n; i++) resid.set(clusters[i]!, (resid.get(clusters[i]!) ?? 0) + d[i]! - mean);
  const c = resid.size;
  if (c < 2) return 1;
  let sc = 0;
  for (const r of resid.values()) sc += r * r;
  const varCluster = ((c / (c - 1)) * sc) / (n * n);
  return Math.max(1, varCluster / varIid);
}

/** The MDE of paired samples a, b (binary → Connor, else normal), with the design effect of their clusters. */
export function mdePaired(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  clusters: readonly string[] | undefined,
  o: MdeOptions = MDE_DEFAULTS,
): number | null {
  const n = a.length;
  if (n === 0) return null;
  const d = Array.from({ length: n }, (_, i) => a[i]! - b[i]!);
  const nEff = n / designEffect(d, clusters);
  let binary = true;
  for (let i = 0; i < n && binary; i++) binary = (a[i] === 0 || a[i] === 1) && (b[i] === 0 || b[i] === 1);
  if (binary) return mdePairedBinary(nEff, d.filter((x) => x !== 0).length / n, o);
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : 0;
  // Differences that do not vary (up to floating-point noise: 0.6 − 0.5 ≠ 0.35 − 0.25 in binary) give the normal
  // approximation nothing to scale: the MDE is undefined, not 0.
  if (!(sd > 1e-9)) return null;
  return mdePairedNormal(nEff, sd, o);
}
