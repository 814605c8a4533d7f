/**
 * Statistics for results: seeded bootstrap CIs (percentile, BCa; per question or per conversation
 * cluster), paired comparisons (paired bootstrap CI of the mean difference; exact McNemar, sign-flip permutation,
 * Wilcoxon signed-rank) and Holm's correction. Pure functions over typed arrays; re-exports only.
 */
export { normalCdf, normalQuantile, erfc } from './normal.ts';
export { resampleIndices, randomSignWords, seedFor, PlanCache } from './resample.ts';
export { quantileSorted, sortedCopy } from './quantile.ts';
export {
  bootstrapCi,
  bootstrapDistribution,
  bootstrapDistributions,
  intervalFrom,
  jackknife,
  bcaLevels,
  percentileInterval,
  clusterBy,
  singletons,
  ratioMean,
  type CiMethod,
  type Clustered,
  type Interval,
} from './bootstrap.ts';
export { mcnemarExact, mcnemarPaired, type McNemarResult } from './mcnemar.ts';
export { signFlipTest, EXACT_MAX, type SignFlipResult } from './sign-flip.ts';
export { wilcoxonSignedRank, type WilcoxonMethod, type WilcoxonResult } from './wilcoxon.ts';
export { holm } from './holm.ts';
export { comparePaired, type PairedOptions, type PairedResult, type ContinuousTest, type TestName } from './paired.ts';
