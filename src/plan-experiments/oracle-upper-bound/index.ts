/**
 * Plan experiment 2: the oracle strategy (best strategy per type, chosen on one half and reported on the other) vs
 * unified retrieval, the best single strategy and the per-question ceiling. Claims: src/eval/verdicts/claims-oracle.ts
 * (oracle-vs-unified, oracle-vs-best-single, premise-single-strategy); section: section.ts.
 */
import { oracleClaims } from '../../eval/verdicts/index.ts';
import { definePlanExperiment, sectionPerRun } from '../plan-experiment.ts';
import { oracleSection } from './section.ts';

export const oracleUpperBound = definePlanExperiment({
  name: 'oracle-upper-bound',
  description: 'best strategy per type (held-out) vs unified retrieval (plan experiment 2)',
  claims: oracleClaims,
  sections: sectionPerRun((store, run, o) => oracleSection(store, run, o.chartsDir)),
});
