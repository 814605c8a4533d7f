/**
 * The statistics of a results file as pure functions over rows (the HTML report and sweeps reuse them):
 *   computeScoreCis(rows, runs)     → a bootstrap CI for every scores_by_type cell
 *   computeComparisons(rows, runs)  → every method vs the run's reference, paired, Holm-adjusted per family
 *   resolveRunStats(runId, config, runIdOfName) → a run's settings from its config's `stats:` block
 */
export { computeScoreCis, type ScoreCiRow } from './score-cis.ts';
export { computeComparisons, type ComparisonRow } from './comparisons.ts';
export {
  resolveRunStats,
  bootstrapFor,
  conversationOf,
  clusterLabels,
  type ScoreInput,
  type RunStats,
  type RunConfigLike,
  type Bootstrap,
} from './inputs.ts';
