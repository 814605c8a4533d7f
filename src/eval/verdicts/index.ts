/**
 * Verdicts (plan experiments 1–5) as data: what each experiment claims, its comparator and Holm family, and the one
 * rule that says reached / not established / not met / n/a, with the MDE. Pure; the store computes and keeps them
 * (src/store/verdicts-table.ts), every report reads them. docs/statistics.md explains the choices.
 */
export { computeVerdicts, experimentNames } from './compute.ts';
export type { PlanClaims, FamilyAssignment, ScopedClaims } from './plan-claims.ts';
export { primarySplitFamily, ablationFamily, transferCellFamily } from './family-hooks.ts';
export type { PendingVerdict } from './families.ts';
export { existingClaims } from './claims-existing.ts';
export { adaptmrClaims } from './claims-adaptmr.ts';
export { staleClaims, ablationStaleClaims } from './claims-stale.ts';
export { ablationClaims } from './claims-ablations.ts';
export { overheadClaims } from './claims-overhead.ts';
export { transferClaims } from './claims-transfer.ts';
export { ClaimContext, type VerdictInput } from './context.ts';
export {
  headlineText,
  type Headline,
  type MethodFacts,
  type PlanRunInput,
  type QuestionFact,
  type RetrievalFact,
  type VerdictRow,
} from './inputs.ts';
export { resolveHeadline, declaredHeadline, autoHeadline, type ResolvedHeadline } from './headline.ts';
export { judge, VERDICTS, MIN_UNITS, ALPHA, type Verdict, type Claim, type Evidence } from './rule.ts';
export { mdePaired, mdePairedBinary, mdePairedNormal, connorSampleSize, designEffect } from './mde.ts';
export {
  oracleAnalysis,
  oracleStrategies,
  type OracleAnalysis,
  type OracleTypeRow,
  type OracleChoice,
} from './oracle.ts';
export { oracleAnalyses, oracleClaims, premiseVerdict } from './claims-oracle.ts';
export { adaptmrVariants, firstStageBase } from './claims-adaptmr.ts';
export { allBaselinesVerdict, baselinesOf, isBaseline } from './claims-baselines.ts';
export { cellFlags, flagText, flagsColumn, parseFlags, FLAGS, type Flag, type CellFacts } from './flags.ts';
export { PREDICTED_DROP, ablationSweeps, variationOf } from './claims-ablations.ts';
export { overheadVerdict, OVERHEAD_LIMIT, OVERHEAD_BASE_MIN_MS, MIN_TIMING_REPEATS } from './claims-overhead.ts';
export { routeByGoldType, rankingChanges, type RouteCell, type RankingChanges } from './routing.ts';
export { efficiencyOf, type MethodEfficiency, type QuestionTiming, type CallRow } from './efficiency.ts';
export { computeFindings, flagSummary, type FindingRow } from './findings.ts';
