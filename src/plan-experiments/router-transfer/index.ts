/**
 * Routing fitted on one benchmark, tested on others: one claim per off-diagonal train × test cell
 * (claims-transfer.ts), those cells one Holm family (or one per test dataset); section: section.ts.
 */
import { transferCellFamily, transferClaims } from '../../eval/verdicts/index.ts';
import { definePlanExperiment, sectionPerRun } from '../plan-experiment.ts';
import { routerTransferSection } from './section.ts';

export const routerTransfer = definePlanExperiment({
  name: 'router-transfer',
  description: 'routing fitted on one benchmark, tested on the others',
  claims: transferClaims,
  family: transferCellFamily,
  sections: sectionPerRun((store, run, o) => routerTransferSection(store, run, o.chartsDir, o.resamples)),
});
