/** Judge-panel agreement (Cohen's and Fleiss' kappa) and per-judge comparisons; re-exports only. */
export { cohensKappa, fleissKappa, majorityVerdict, type Agreement } from './kappa.ts';
export {
  ALL_JUDGES,
  computeJudgeAgreement,
  computeJudgeComparisons,
  type JudgeAgreementRow,
  type JudgeComparisonRow,
  type VerdictInput,
} from './panel-stats.ts';
