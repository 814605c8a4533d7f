/**
 * The registry of plan experiments (one folder each under src/plan-experiments/, `definePlanExperiment`): one line per
 * experiment, in the report's order (the plan's experiments 1 … 5, then the two beyond it). The one module that
 * imports the folders. The config's accepted names stay `PLAN_EXPERIMENTS` (src/core/stats-config.ts, a public
 * contract checked with "did you mean"); the conformance suite checks that list and this one are the same.
 */
import { InputError } from '../core/errors.ts';
import { unknownName } from '../core/registry.ts';
import { ablations } from './ablations/index.ts';
import { adaptmrVsBaselines } from './adaptmr-vs-baselines/index.ts';
import { beyondBenchmarks } from './beyond-benchmarks/index.ts';
import { efficiency } from './efficiency/index.ts';
import { existingSystems } from './existing-systems/index.ts';
import { oracleUpperBound } from './oracle-upper-bound/index.ts';
import type { PlanExperiment } from './plan-experiment.ts';
import { routerTransfer } from './router-transfer/index.ts';

export const PLAN_EXPERIMENT_REGISTRY: readonly PlanExperiment[] = Object.freeze([
  existingSystems,
  oracleUpperBound,
  adaptmrVsBaselines,
  ablations,
  efficiency,
  beyondBenchmarks,
  routerTransfer,
]);

/** The experiment of this name; an unknown name is an InputError with "did you mean". */
export function planExperiment(name: string): PlanExperiment {
  const entry = PLAN_EXPERIMENT_REGISTRY.find((e) => e.name === name);
  if (!entry)
    throw new InputError(
      unknownName(
        'plan experiment',
        name,
        PLAN_EXPERIMENT_REGISTRY.map((e) => e.name),
      ),
    );
  return entry;
}
