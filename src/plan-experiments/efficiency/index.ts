/**
 * Plan experiment 5: efficiency — latency, tokens and cost per question, and AdaptMR's overhead over unified
 * retrieval (claims-overhead.ts). Section: the timing tables and charts (section.ts).
 */
import { overheadClaims } from '../../eval/verdicts/index.ts';
import { definePlanExperiment, sectionPerRun } from '../plan-experiment.ts';
import { efficiencySection } from './section.ts';

export const efficiency = definePlanExperiment({
  name: 'efficiency',
  description: "latency, tokens and cost per question; AdaptMR's overhead (plan experiment 5)",
  claims: overheadClaims,
  sections: sectionPerRun((store, run, o) => efficiencySection(store, run, o.chartsDir, o.resamples)),
});
