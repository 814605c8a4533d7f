/**
 * Bootstrap confidence intervals of a mean over clustered units. Every statistic here is a ratio mean
 * Σ value / Σ count over resampled *clusters*: with clusters of one question it is the ordinary bootstrap of the
 * mean (Efron & Tibshirani 1993, ch. 6 and 13), and with LoCoMo's conversations as clusters it is the cluster
 * (block) bootstrap, which keeps the correlation of questions asked about the same conversation (Field & Welsh
 * 2007, "Bootstrapping clustered data", JRSS-B 69(3); Cameron, Gelbach & Miller 2008, "Bootstrap-based improvements
 * for inference with clustered errors", REStat 90(3)). Resampling whole clusters is what makes the interval honest
 * when ~200 questions share one conversation.
 *
 * Two intervals:
 *   - percentile (Efron & Tibshirani §13.3): the α/2 and 1−α/2 quantiles of the bootstrap distribution;
 *   - BCa, bias-corrected and accelerated (Efron 1987, JASA 82; DiCiccio & Efron 1996, "Bootstrap confidence
 *     intervals", Statistical Science 11(3), eq. 2.3 ff.; Efron & Tibshirani §14.3, eq. 14.10–14.15): the quantile
 *     levels are shifted by the median bias z0 and the jackknife acceleration a. It is second-order accurate, which
 *     matters for proportions near 0 or 1 in small cells (n = 30), where the percentile interval is skewed.
 *     Computed exactly as scipy.stats.bootstrap(method='BCa') does (z0 from the "mean" percentile of θ̂, a from
 *     leave-one-cluster-out jackknife values), so the two agree to rounding on the same bootstrap distribution.
 * BCa is the default. When it is undefined — every bootstrap value on one side of θ̂ (z0 = ±∞), or no variation
 * at all (e.g. every question scored 1) — the percentile interval is used and `method` says so.
 */
import { normalCdf, normalQuantile } from './normal.ts';
import { quantileSorted } from './quantile.ts';

export type CiMethod = 'percentile' | 'bca';

/** Units of a statistic: per cluster, the sum of values and the number of questions. */
export interface Clustered {
  sums: Float64Array;
  counts: Float64Array;
}

export interface Interval {
  estimate: number;
  low: number;
  high: number;
  /** The interval actually computed (BCa falls back to percentile when undefined). */
  method: CiMethod;
}

/** Clusters of one question each. */
export function singletons(values: ArrayLike<number>): Clustered {
  return { sums: Float64Array.from(values), counts: new Float64Array(values.length).fill(1) };
}

/** Groups values by cluster label (labels in first-seen order). */
export function clusterBy(values: ArrayLike<number>, labels: readonly string[]): Clustered {
  const at = new Map<string, number>();
  const sums: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const label = labels[i]!;
    let j = at.get(label);
    if (j === undefined) {
      j = sums.length;
      at.set(label, j);
      sums.push(0);
      counts.push(0);
    }
    sums[j]! += values[i]!;
    counts[j]! += 1;
  }
  return { sums: Float64Array.from(sums), counts: Float64Array.from(counts) };
}

export function ratioMean(c: Clustered): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < c.sums.length; i++) {
    s += c.sums[i]!;
    n += c.counts[i]!;
  }
  return s / n;
}

/** The bootstrap distribution θ*_b = Σ sums[idx] / Σ counts[idx] over the B draws of `plan` (B × G indices). */
export function bootstrapDistribution(c: Clustered, plan: Uint32Array): Float64Array {
  const g = c.sums.length;
  const b = plan.length / g;
  if (!Number.isInteger(b)) throw new RangeError(`plan of ${plan.length} indices does not fit ${g} clusters`);
  const out = new Float64Array(b);
  // Clusters of one question each (the common case): every draw counts g questions, so only the sums are gathered.
  // Σ of g ones is exactly g in float64, so the values are the same as the general loop's.
  if (c.counts.every((v) => v === 1)) {
    for (let r = 0, o = 0; r < b; r++) {
      let s = 0;
      for (let j = 0; j < g; j++, o++) s += c.sums[plan[o]!]!;
      out[r] = s / g;
    }
    return out;
  }
  for (let r = 0, o = 0; r < b; r++) {
    let s = 0;
    let n = 0;
    for (let j = 0; j < g; j++, o++) {
      const i = plan[o]!;
      s += c.sums[i]!;
      n += c.counts[i]!;
    }
    out[r] = s / n;
  }
  return out;
}

/**
 * `bootstrapDistribution` of several statistics over the same clusters and plan. Four statistics at a time share
 * one pass over the plan, each with its own running sum: four independent additions per drawn index instead of one
 * chain of dependent ones, so the pass is bound by the plan rather than by the latency of an addition (~3× faster).
 * Each statistic's sums are accumulated in the same order as `bootstrapDistribution`'s, so its values are
 * bit-identical to it.
 */
export function bootstrapDistributions(cs: readonly Clustered[], plan: Uint32Array): Float64Array[] {
  const out: Float64Array[] = [];
  for (let first = 0; first < cs.length; first += LANES)
    out.push(...distributionsOfFour(cs.slice(first, first + LANES), plan));
  return out;
}

const LANES = 4;

/** Up to four statistics' distributions (missing lanes are zeros, their results dropped). */
function distributionsOfFour(cs: readonly Clustered[], plan: Uint32Array): Float64Array[] {
  const g = cs[0]!.sums.length;
  if (!Number.isInteger(plan.length / g) || cs.some((c) => c.sums.length !== g))
    throw new RangeError(`plan of ${plan.length} indices does not fit ${g} clusters`);
  const sums = drawSumsOfFour(
    cs.map((c) => c.sums),
    plan,
  );
  // Clusters of one question each (the common case): every draw counts g questions, as in bootstrapDistribution.
  if (cs.every((c) => c.counts.every((v) => v === 1))) {
    for (const lane of sums) for (let r = 0; r < lane.length; r++) lane[r] = lane[r]! / g;
  } else {
    const counts = drawSumsOfFour(
      cs.map((c) => c.counts),
      plan,
    );
    sums.forEach((lane, k) => {
      for (let r = 0; r < lane.length; r++) lane[r] = lane[r]! / counts[k]![r]!;
    });
  }
  return sums.slice(0, cs.length);
}

/** Per draw of `plan`, the sum of each of up to four value arrays over the drawn clusters, each in draw order. */
function drawSumsOfFour(values: readonly Float64Array[], plan: Uint32Array): Float64Array[] {
  const g = values[0]!.length;
  const b = plan.length / g;
  // Interleaved per cluster: the four arrays' values of a drawn cluster are adjacent.
  const v = new Float64Array(g * LANES);
  values.forEach((a, k) => {
    for (let i = 0; i < g; i++) v[i * LANES + k] = a[i]!;
  });
  const out = Array.from({ length: LANES }, () => new Float64Array(b));
  const [o0, o1, o2, o3] = out as [Float64Array, Float64Array, Float64Array, Float64Array];
  for (let r = 0, o = 0; r < b; r++) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0; j < g; j++, o++) {
      const at = plan[o]! * LANES;
      s0 += v[at]!;
      s1 += v[at + 1]!;
      s2 += v[at + 2]!;
      s3 += v[at + 3]!;
    }
    o0[r] = s0;
    o1[r] = s1;
    o2[r] = s2;
    o3[r] = s3;
  }
  return out;
}

/** Leave-one-cluster-out values of the ratio mean (the jackknife of Efron & Tibshirani ch. 11). */
export function jackknife(c: Clustered): Float64Array {
  let s = 0;
  let n = 0;
  for (let i = 0; i < c.sums.length; i++) {
    s += c.sums[i]!;
    n += c.counts[i]!;
  }
  const out = new Float64Array(c.sums.length);
  for (let i = 0; i < out.length; i++) out[i] = (s - c.sums[i]!) / (n - c.counts[i]!);
  return out;
}

export function percentileInterval(sortedB: Float64Array, alpha: number): [number, number] {
  return [quantileSorted(sortedB, alpha / 2), quantileSorted(sortedB, 1 - alpha / 2)];
}

/**
 * BCa quantile levels (α1, α2) for a two-sided 1−α interval, or null when undefined. z0 = Φ⁻¹(share of θ*_b below
 * θ̂, ties counted half); a = Σ U³ / (6 (Σ U²)^{3/2}) with U_i = (n−1)(θ̄_(·) − θ_(i)) (scipy's form; the (n−1)
 * factors cancel).
 */
export function bcaLevels(
  thetaHat: number,
  sortedB: Float64Array,
  jack: Float64Array,
  alpha: number,
): [number, number] | null {
  const B = sortedB.length;
  let below = 0;
  let belowOrEqual = 0;
  for (let i = 0; i < B; i++) {
    const v = sortedB[i]!;
    if (v < thetaHat) below++;
    if (v <= thetaHat) belowOrEqual++;
  }
  const z0 = normalQuantile((below + belowOrEqual) / (2 * B));
  if (!Number.isFinite(z0)) return null;
  const n = jack.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += jack[i]!;
  mean /= n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const u = (n - 1) * (mean - jack[i]!);
    num += u * u * u;
    den += u * u;
  }
  const a = den === 0 ? 0 : num / n ** 3 / (6 * (den / n ** 2) ** 1.5);
  const zLow = normalQuantile(alpha / 2);
  const levels = [zLow, -zLow].map((z) => normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)))) as [number, number];
  return levels.every(Number.isFinite) ? levels : null;
}

/** The CI of the ratio mean from a bootstrap distribution already drawn. */
export function intervalFrom(c: Clustered, thetaB: Float64Array, method: CiMethod, alpha = 0.05): Interval {
  const estimate = ratioMean(c);
  const sorted = Float64Array.from(thetaB).sort();
  if (sorted[0] === sorted[sorted.length - 1])
    return { estimate, low: sorted[0]!, high: sorted[0]!, method: 'percentile' };
  if (method === 'bca') {
    const levels = bcaLevels(estimate, sorted, jackknife(c), alpha);
    if (levels)
      return {
        estimate,
        low: quantileSorted(sorted, levels[0]),
        high: quantileSorted(sorted, levels[1]),
        method: 'bca',
      };
  }
  const [low, high] = percentileInterval(sorted, alpha);
  return { estimate, low, high, method: 'percentile' };
}

/** Bootstrap CI of the (cluster) mean with the given resampling plan (B × number of clusters indices). */
export function bootstrapCi(c: Clustered, plan: Uint32Array, method: CiMethod, alpha = 0.05): Interval {
  return intervalFrom(c, bootstrapDistribution(c, plan), method, alpha);
}
