/**
 * Plan experiment 1: the existing memory systems by query type. Claims: each system's per-type spread against the
 * unified reference (src/eval/verdicts/claims-existing.ts); section: the per-type table, the plan systems not run,
 * the verdicts and the chart (section.ts).
 */
import { existingClaims } from '../../eval/verdicts/index.ts';
import { definePlanExperiment, sectionPerRun } from '../plan-experiment.ts';
import { existingSystemsSection } from './section.ts';

export const existingSystems = definePlanExperiment({
  name: 'existing-systems',
  description: 'existing memory systems by query type (plan experiment 1)',
  claims: existingClaims,
  sections: sectionPerRun((store, run, o) => existingSystemsSection(store, run, o.chartsDir)),
});
