/**
 * Plan experiment 4: ablations of AdaptMR, one run per variation against the full system (a sweep). Claims are made
 * across the sweep's runs (claims-ablations.ts, and the stale-evidence claim per variation, claims-stale.ts); an
 * inert ablation is left out of every family and, by default, the variations share the base run's families.
 * Section: one over the base run and its variations (section.ts).
 */
import {
  ablationClaims,
  ablationFamily,
  ablationStaleClaims,
  ablationSweeps,
  type ScopedClaims,
} from '../../eval/verdicts/index.ts';
import { definePlanExperiment } from '../plan-experiment.ts';
import { ablationsSection } from './section.ts';

export const ablations = definePlanExperiment({
  name: 'ablations',
  description: 'ablations of AdaptMR against the full system, one run per variation (plan experiment 4)',
  acrossRuns: (ctx, runs, experimentOf): ScopedClaims[] =>
    ablationSweeps(runs).map(({ base, variations }) => ({
      scope: base.runId,
      claims: [
        ...ablationClaims(ctx, base, variations, experimentOf(base)),
        ...ablationStaleClaims(ctx, base, variations, experimentOf(base)),
      ],
    })),
  family: ablationFamily,
  sections: async (store, runs, o) => [await ablationsSection(store, runs, o.chartsDir)],
});
