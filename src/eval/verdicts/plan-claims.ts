/**
 * The claims half of a plan experiment (src/plan-experiments/, `definePlanExperiment`): what `computeVerdicts` asks of
 * each experiment by name — the claims a run of it makes, the claims it makes across several runs (an ablation
 * sweep), and the Holm family it declares for a comparisons row of its runs. The verdict engine (compute.ts) names no
 * experiment; the registry (src/plan-experiments/registry.ts) hands it every entry.
 */
import type { ComparisonRow } from '../stats/results/index.ts';
import type { ClaimContext } from './context.ts';
import type { PendingVerdict } from './families.ts';
import type { PlanRunInput } from './inputs.ts';

/** The family a plan experiment declares for one comparisons row, and the run it is scoped to when not the row's. */
export interface FamilyAssignment {
  family: string;
  /** The run id whose families this row joins (a sweep's base run), when not its own. */
  scope?: string;
}

/** Claims made over several runs of the file, each list corrected in the families of its scope run. */
export interface ScopedClaims {
  scope: string;
  claims: PendingVerdict[];
}

export interface PlanClaims {
  /** The experiment's name, as a config's `plan.experiment` gives it. */
  readonly name: string;
  /** The claims one run of this experiment makes; `experiment` is the verdicts' `experiment` column. */
  claims?(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[];
  /** Claims over several runs (all of the file's plan runs given), after every run's own claims. */
  acrossRuns?(
    ctx: ClaimContext,
    runs: readonly PlanRunInput[],
    experimentOf: (run: PlanRunInput) => string,
  ): ScopedClaims[];
  /** The Holm family of a comparisons row of one of its runs; undefined keeps the default (per run). */
  family?(ctx: ClaimContext, run: PlanRunInput, c: ComparisonRow): FamilyAssignment | undefined;
}
