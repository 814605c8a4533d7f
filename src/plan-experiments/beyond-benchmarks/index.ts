/**
 * Beyond the plan's five: experiment 3's and experiment 2's claims on further benchmarks (claims-adaptmr.ts,
 * claims-stale.ts, claims-oracle.ts), with experiment 3's primary / exploratory families; section: section.ts.
 */
import { adaptmrClaims, oracleClaims, primarySplitFamily, staleClaims } from '../../eval/verdicts/index.ts';
import { definePlanExperiment, sectionPerRun } from '../plan-experiment.ts';
import { beyondBenchmarksSection } from './section.ts';

export const beyondBenchmarks = definePlanExperiment({
  name: 'beyond-benchmarks',
  description: "the plan's comparison and oracle on further benchmarks",
  claims: (ctx, run, experiment) => [
    ...adaptmrClaims(ctx, run, experiment),
    ...staleClaims(ctx, run, experiment),
    ...oracleClaims(ctx, run, experiment),
  ],
  family: primarySplitFamily,
  sections: sectionPerRun((store, run, o) => beyondBenchmarksSection(store, run, o.chartsDir, o.resamples)),
});
