/**
 * The statistics against hand-worked cases and reference values from scipy 1.17.1 (numpy 2.4). Each reference
 * value names the exact Python call that produced it (`import numpy as np; from scipy import stats`).
 */
import { describe, expect, it } from 'vitest';
import {
  PlanCache,
  bcaLevels,
  bootstrapCi,
  bootstrapDistribution,
  bootstrapDistributions,
  clusterBy,
  comparePaired,
  holm,
  intervalFrom,
  jackknife,
  mcnemarExact,
  mcnemarPaired,
  normalCdf,
  normalQuantile,
  quantileSorted,
  resampleIndices,
  signFlipTest,
  singletons,
  wilcoxonSignedRank,
} from './index.ts';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

describe('normal distribution', () => {
  it('matches scipy.special.ndtr / ndtri to ~1e-15 relative', () => {
    // [ndtr(x) for x in (-8, -3, -1.96, 0.47, 2.5)]
    const cdf: [number, number][] = [
      [-8, 6.22096057427174e-16],
      [-3, 0.0013498980316300933],
      [-1.96, 0.024997895148220435],
      [0.47, 0.6808224912174442],
      [2.5, 0.9937903346742238],
    ];
    for (const [x, want] of cdf) expect(Math.abs(normalCdf(x) - want) / want).toBeLessThan(2e-14);
    // [ndtri(p) for p in (1e-10, 0.025, 0.3, 0.975)]
    const q: [number, number][] = [
      [1e-10, -6.361340902404056],
      [0.025, -1.9599639845400545],
      [0.3, -0.5244005127080409],
      [0.975, 1.959963984540054],
    ];
    for (const [p, want] of q) expect(Math.abs(normalQuantile(p) - want)).toBeLessThan(1e-14);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
  });
});

describe('resampling plans', () => {
  it('are deterministic per seed, in range, and differ between seeds', () => {
    const a = resampleIndices(7, 50, 123);
    expect(Array.from(a)).toEqual(Array.from(resampleIndices(7, 50, 123)));
    expect(Array.from(a).every((i) => i >= 0 && i < 7)).toBe(true);
    expect(Array.from(a)).not.toEqual(Array.from(resampleIndices(7, 50, 124)));
    expect(new Set(a).size).toBe(7);
  });
  it("draw exactly what pure-rand's uniformInt draws from the same generator, for any size", () => {
    for (const [n, seed] of [
      [1, 1],
      [2, 9],
      [3, 4],
      [7, 123],
      [500, -77],
      [1000, 2 ** 31 - 1],
      [3 * 2 ** 18 + 1, 5],
    ] as const) {
      const resamples = Math.ceil(4000 / n);
      const rng = xoroshiro128plus(seed);
      const want = Array.from({ length: n * resamples }, () => uniformInt(rng, 0, n - 1));
      expect(Array.from(resampleIndices(n, resamples, seed))).toEqual(want);
    }
  });
  it('a cache hands the same plan to cells of the same size and seed', () => {
    const cache = new PlanCache();
    expect(cache.get(5, 10, 1)).toBe(cache.get(5, 10, 1));
    expect(cache.get(5, 10, 1)).not.toBe(cache.get(5, 10, 2));
  });
});

describe('bootstrap intervals', () => {
  it('linear-interpolation quantiles (Hyndman–Fan 7) by hand', () => {
    const s = Float64Array.from([1, 2, 3, 4]);
    expect(quantileSorted(s, 0)).toBe(1);
    expect(quantileSorted(s, 0.5)).toBe(2.5);
    expect(quantileSorted(s, 0.25)).toBeCloseTo(1.75, 12);
  });

  it('several statistics drawn in one pass equal each drawn alone, bit for bit (questions and clusters)', () => {
    const rng = xoroshiro128plus(42);
    const value = () => (rng.next() >>> 0) / 2 ** 32;
    for (const clusters of [false, true]) {
      for (const m of [1, 3, 4, 5, 9]) {
        const g = 37;
        const cs = Array.from({ length: m }, () => {
          const sums = Float64Array.from({ length: g }, value);
          const counts = Float64Array.from({ length: g }, (_, i) => (clusters ? 1 + (i % 5) : 1));
          return { sums, counts };
        });
        const plan = resampleIndices(g, 300, m);
        const together = bootstrapDistributions(cs, plan);
        expect(together).toHaveLength(m);
        together.forEach((t, i) => expect(Array.from(t)).toEqual(Array.from(bootstrapDistribution(cs[i]!, plan))));
      }
    }
  });
  it('bootstrap distribution and jackknife by hand', () => {
    // values 0, 1, 1; plan: draw 1 = (0, 0, 1), draw 2 = (2, 2, 2)
    const c = singletons([0, 1, 1]);
    expect(Array.from(bootstrapDistribution(c, Uint32Array.from([0, 0, 1, 2, 2, 2])))).toEqual([1 / 3, 1]);
    expect(Array.from(jackknife(c))).toEqual([1, 0.5, 0.5]);
    // clusters: {A: 1, 1}, {B: 0}: leave A out → 0, leave B out → 1; ratio mean of a draw (A, A) = 2/2
    const k = clusterBy([1, 1, 0], ['A', 'A', 'B']);
    expect(Array.from(k.sums)).toEqual([2, 0]);
    expect(Array.from(k.counts)).toEqual([2, 1]);
    expect(Array.from(jackknife(k))).toEqual([0, 1]);
    expect(Array.from(bootstrapDistribution(k, Uint32Array.from([0, 0, 1, 1, 0, 1])))).toEqual([1, 0, 2 / 3]);
  });

  // x = np.array([0.,1,1,0,1,1,1,0,1,1]); tb = the 20 values below
  // br = scipy.stats._resampling.BootstrapResult(confidence_interval=scipy.stats._common.ConfidenceInterval(np.nan, np.nan),
  //        bootstrap_distribution=tb, standard_error=np.nan)
  // stats.bootstrap((x,), np.mean, n_resamples=0, bootstrap_result=br, method=M, confidence_level=0.95).confidence_interval
  const x = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1];
  const tb = Float64Array.from([
    0.5, 0.6, 0.7, 0.7, 0.8, 0.6, 0.9, 0.5, 0.7, 0.8, 0.6, 0.4, 0.7, 0.8, 0.9, 0.6, 0.7, 0.5, 0.8, 0.7,
  ]);
  it('BCa matches scipy.stats.bootstrap(method="BCa") on the same bootstrap distribution', () => {
    const ci = intervalFrom(singletons(x), tb, 'bca');
    expect(ci.method).toBe('bca');
    expect(ci.low).toBeCloseTo(0.457401557794744, 12);
    expect(ci.high).toBeCloseTo(0.9, 12);
  });
  it('percentile matches scipy.stats.bootstrap(method="percentile") on the same distribution', () => {
    const ci = intervalFrom(singletons(x), tb, 'percentile');
    expect(ci.low).toBeCloseTo(0.44750000000000006, 12);
    expect(ci.high).toBeCloseTo(0.9, 12);
  });
  it('BCa from a fresh seeded plan agrees with scipy within Monte Carlo error', () => {
    // y below; stats.bootstrap((y,), np.mean, n_resamples=200000, method='BCa', rng=np.random.default_rng(1))
    //   → (0.2708333333333333, 0.6166666666666667)
    const y = [0.12, 0.5, 0.33, 0.9, 0.0, 0.41, 0.77, 0.25, 0.6, 0.05, 0.3, 0.95];
    const ci = bootstrapCi(singletons(y), resampleIndices(y.length, 200000, 7), 'bca');
    expect(ci.low).toBeCloseTo(0.2708, 2);
    expect(ci.high).toBeCloseTo(0.6167, 2);
  });
  it('degenerate data give a zero-width percentile interval instead of NaN', () => {
    const ci = bootstrapCi(singletons([1, 1, 1, 1]), resampleIndices(4, 100, 1), 'bca');
    expect(ci).toEqual({ estimate: 1, low: 1, high: 1, method: 'percentile' });
  });
  it('BCa levels are undefined when every bootstrap value lies above the estimate', () => {
    expect(bcaLevels(0.1, Float64Array.from([0.2, 0.3]), Float64Array.from([0.1, 0.2]), 0.05)).toBeNull();
  });
  it('a cluster bootstrap is wider than the question bootstrap when clusters are homogeneous', () => {
    const values = [
      ...Array<number>(30).fill(1),
      ...Array<number>(30).fill(0),
      ...Array<number>(30).fill(1),
      ...Array<number>(30).fill(0),
    ];
    const labels = values.map((_, i) => `c${Math.floor(i / 30)}`);
    const q = bootstrapCi(singletons(values), resampleIndices(120, 2000, 3), 'percentile');
    const c = bootstrapCi(clusterBy(values, labels), resampleIndices(4, 2000, 3), 'percentile');
    expect(c.high - c.low).toBeGreaterThan(3 * (q.high - q.low));
  });
});

describe('McNemar exact', () => {
  it('equals scipy.stats.binomtest(b, b + c, 0.5).pvalue (= statsmodels mcnemar(exact=True))', () => {
    const ref: [number, number, number][] = [
      [3, 10, 0.09228515625],
      [0, 6, 0.03125],
      [12, 12, 1],
      [40, 61, 0.046044066929342785],
      [1, 0, 1],
    ];
    for (const [b, c, p] of ref) expect(mcnemarExact(b, c).pValue).toBeCloseTo(p, 13);
  });
  it('by hand: 0 vs 3 discordant → 2 · (1/2)^3 = 0.25; concordant pairs do not matter', () => {
    const r = mcnemarPaired([0, 0, 0, 1, 0], [1, 1, 1, 1, 0]);
    expect([r.onlyA, r.onlyB]).toEqual([0, 3]);
    expect(r.pValue).toBeCloseTo(0.25, 14);
    expect(() => mcnemarPaired([0.5], [1])).toThrow(/0\/1/);
  });
});

describe('sign-flip permutation', () => {
  it('exact p equals scipy.stats.permutation_test(permutation_type="samples", n_resamples=np.inf)', () => {
    // stats.permutation_test((a, b), lambda u, v, axis: np.mean(u - v, axis=axis), permutation_type='samples',
    //   n_resamples=np.inf, vectorized=True) → statistic 0.11499999999999999, pvalue 0.03125
    const a = [0.8, 0.5, 0.9, 0.3, 0.7, 0.6, 0.4, 0.95, 0.2, 0.55];
    const b = [0.6, 0.5, 0.7, 0.4, 0.5, 0.3, 0.4, 0.9, 0.1, 0.35];
    const r = signFlipTest(
      a.map((v, i) => v - b[i]!),
      a.length,
      1000,
      1,
    );
    expect(r.exact).toBe(true);
    expect(r.statistic).toBeCloseTo(0.115, 12);
    expect(r.pValue).toBeCloseTo(0.03125, 12);
  });
  it('by hand: three equal positive differences → 2 · 1/8', () => {
    expect(signFlipTest([1, 1, 1], 3, 10, 1).pValue).toBe(0.25);
    expect(signFlipTest([0, 0], 2, 10, 1).pValue).toBe(1);
  });
  it('Monte Carlo is seeded and close to the exact value', () => {
    const d = Array.from({ length: 40 }, (_, i) => ((i * 7) % 11) / 10 - 0.3);
    const r1 = signFlipTest(d, 40, 4000, 9);
    expect(r1.exact).toBe(false);
    expect(signFlipTest(d, 40, 4000, 9).pValue).toBe(r1.pValue);
    expect(r1.pValue).toBeGreaterThan(0);
    expect(r1.pValue).toBeLessThan(0.01);
  });
});

describe('Wilcoxon signed-rank', () => {
  it('exact p equals scipy.stats.wilcoxon(d, method="exact")', () => {
    // d = np.array([1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30])
    //     - np.array([0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]); stats.wilcoxon(d, method='exact')
    //   → pvalue 0.0390625 (statistic min(R+, R−) = 5)
    const a = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const b = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const r = wilcoxonSignedRank(a.map((v, i) => v - b[i]!));
    expect(r.method).toBe('exact');
    expect(r.statistic).toBe(40);
    expect(r.pValue).toBeCloseTo(0.0390625, 12);
  });
  it('asymptotic p with ties and zeros equals scipy.stats.wilcoxon(d, method="asymptotic")', () => {
    // d = np.array([0.2, -0.1, 0.2, 0.3, 0, 0.1, -0.2, 0.3, 0.4, 0.1, 0.2, -0.1, 0.5, 0.2, 0.0, 0.3])
    // stats.wilcoxon(d, method='asymptotic').pvalue → 0.010347050430125786
    const d = [0.2, -0.1, 0.2, 0.3, 0, 0.1, -0.2, 0.3, 0.4, 0.1, 0.2, -0.1, 0.5, 0.2, 0.0, 0.3];
    const r = wilcoxonSignedRank(d);
    expect(r.method).toBe('asymptotic');
    expect(r.n).toBe(14);
    expect(r.pValue).toBeCloseTo(0.010347050430125786, 12);
  });
});

describe('Holm', () => {
  it('by hand: (0.01, 0.04, 0.03, 0.005) → (0.03, 0.06, 0.06, 0.02); NaN ignored', () => {
    const out = holm([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => expect(out[i]).toBeCloseTo(v, 14));
    const withNan = holm([0.02, Number.NaN, 0.5]);
    expect(withNan[0]).toBeCloseTo(0.04, 14);
    expect(withNan[1]).toBeNaN();
    expect(withNan[2]).toBe(0.5);
    // 0.8 · 2 clips at 1, and the step-down keeps the larger p at least as large
    expect(holm([0.9, 0.8])).toEqual([1, 1]);
  });
});

describe('paired comparison', () => {
  const opts = {
    resamples: 2000,
    seed: 5,
    ci: 'bca' as const,
    continuousTest: 'sign-flip' as const,
    plans: new PlanCache(),
  };
  it('binary scores: McNemar, CI around the mean difference', () => {
    const a = Float64Array.from([1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1]);
    const b = Float64Array.from([0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0]);
    const r = comparePaired(a, b, undefined, opts);
    expect(r.test).toBe('mcnemar-exact');
    expect(r.meanDiff).toBeCloseTo(7 / 12, 14);
    expect(r.pValue).toBeCloseTo(2 / 128, 14);
    expect(r.ciLow).toBeLessThan(r.meanDiff);
    expect(r.ciHigh).toBeGreaterThan(r.meanDiff);
  });
  it('continuous scores use the sign-flip test (or Wilcoxon when asked); clustered data flip whole clusters', () => {
    const a = Float64Array.from([0.5, 0.7, 0.2, 0.9]);
    const b = Float64Array.from([0.4, 0.7, 0.1, 0.6]); // one zero difference → asymptotic Wilcoxon
    expect(comparePaired(a, b, undefined, opts).test).toBe('sign-flip-exact');
    expect(comparePaired(a, b, undefined, { ...opts, continuousTest: 'wilcoxon' }).test).toBe('wilcoxon-asymptotic');
    const noTies = Float64Array.from([0.4, 0.68, 0.1, 0.6]);
    expect(comparePaired(a, noTies, undefined, { ...opts, continuousTest: 'wilcoxon' }).test).toBe('wilcoxon-exact');
    const c = comparePaired(a, b, ['x', 'x', 'y', 'y'], opts);
    expect(c.test).toBe('cluster-sign-flip-exact');
    // two clusters with positive sums: 2 of 4 sign vectors are as extreme → two-sided 2·(1/4)
    expect(c.pValue).toBe(0.5);
  });
});
