/**
 * Plan experiment 3: AdaptMR against the baselines (the paper's main table). Claims: adaptmr-vs-unified,
 * -vs-baseline, -over-bm25 / -over-hybrid (claims-adaptmr.ts) and the update strategy's stale-evidence claim
 * (claims-stale.ts); families: every AdaptMR variant's comparisons primary, the rest exploratory; section: section.ts.
 */
import { adaptmrClaims, primarySplitFamily, staleClaims } from '../../eval/verdicts/index.ts';
import { definePlanExperiment, sectionPerRun } from '../plan-experiment.ts';
import { adaptmrVsBaselinesSection } from './section.ts';

export const adaptmrVsBaselines = definePlanExperiment({
  name: 'adaptmr-vs-baselines',
  description: 'AdaptMR vs the baselines, paired against unified embedding (plan experiment 3)',
  claims: (ctx, run, experiment) => [...adaptmrClaims(ctx, run, experiment), ...staleClaims(ctx, run, experiment)],
  family: primarySplitFamily,
  sections: sectionPerRun((store, run, o) => adaptmrVsBaselinesSection(store, run, o.chartsDir)),
});
