/**
 * One paired comparison of methods A and B on the same questions: the mean difference A − B, its paired bootstrap
 * CI (the differences resampled by question, or by conversation for clustered data — Efron & Tibshirani 1993
 * §15.3 on paired bootstrap; bootstrap.ts for the interval), and a test of "no difference" chosen to fit the data:
 *   - clustered data: sign-flip over whole clusters (sign-flip.ts), since questions of one conversation are not
 *     independent and McNemar / Wilcoxon assume they are;
 *   - binary scores (every value 0 or 1, e.g. recall_any, recall_all, judged accuracy): exact McNemar (mcnemar.ts);
 *   - continuous scores (nDCG, precision, F1): the sign-flip permutation test of the mean difference (default,
 *     it tests the same quantity the CI estimates) or the Wilcoxon signed-rank test (wilcoxon.ts).
 */
import { bootstrapCi, clusterBy, singletons, type CiMethod, type Clustered } from './bootstrap.ts';
import { mcnemarPaired } from './mcnemar.ts';
import type { PlanCache } from './resample.ts';
import { signFlipTest } from './sign-flip.ts';
import { wilcoxonSignedRank } from './wilcoxon.ts';

export type ContinuousTest = 'sign-flip' | 'wilcoxon';
export type TestName =
  | 'mcnemar-exact'
  | 'sign-flip-exact'
  | 'sign-flip-mc'
  | 'cluster-sign-flip-exact'
  | 'cluster-sign-flip-mc'
  | 'wilcoxon-exact'
  | 'wilcoxon-asymptotic';

export interface PairedOptions {
  resamples: number;
  /** Seed of the resampling plan and of Monte Carlo sign flips (derive it from the question set). */
  seed: number;
  ci: CiMethod;
  continuousTest: ContinuousTest;
  plans: PlanCache;
  alpha?: number;
}

export interface PairedResult {
  nPairs: number;
  meanDiff: number;
  ciLow: number;
  ciHigh: number;
  ciMethod: CiMethod;
  pValue: number;
  test: TestName;
}

const isBinary = (v: ArrayLike<number>): boolean => {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0 && v[i] !== 1) return false;
  return true;
};

/** `clusters`: one label per pair (LoCoMo conversation), or undefined for independent questions. */
export function comparePaired(
  a: Float64Array,
  b: Float64Array,
  clusters: readonly string[] | undefined,
  o: PairedOptions,
): PairedResult {
  const n = a.length;
  if (b.length !== n) throw new RangeError(`paired samples differ in length: ${n} and ${b.length}`);
  if (n === 0) throw new RangeError('no pairs to compare');
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = a[i]! - b[i]!;
  const units: Clustered = clusters ? clusterBy(d, clusters) : singletons(d);
  const plan = o.plans.get(units.sums.length, o.resamples, o.seed);
  const ci = bootstrapCi(units, plan, o.ci, o.alpha ?? 0.05);
  let pValue: number;
  let test: TestName;
  if (clusters) {
    const r = signFlipTest(units.sums, n, o.resamples, o.seed ^ 0x5bd1e995);
    pValue = r.pValue;
    test = r.exact ? 'cluster-sign-flip-exact' : 'cluster-sign-flip-mc';
  } else if (isBinary(a) && isBinary(b)) {
    pValue = mcnemarPaired(a, b).pValue;
    test = 'mcnemar-exact';
  } else if (o.continuousTest === 'wilcoxon') {
    const r = wilcoxonSignedRank(d);
    pValue = r.pValue;
    test = r.method === 'exact' ? 'wilcoxon-exact' : 'wilcoxon-asymptotic';
  } else {
    const r = signFlipTest(d, n, o.resamples, o.seed ^ 0x5bd1e995);
    pValue = r.pValue;
    test = r.exact ? 'sign-flip-exact' : 'sign-flip-mc';
  }
  return { nPairs: n, meanDiff: ci.estimate, ciLow: ci.low, ciHigh: ci.high, ciMethod: ci.method, pValue, test };
}
