/**
 * The plan's five experiments as report sections: each run whose config has a `plan:` block gets its
 * experiment's section — text, chart(s) and its stored verdicts — in `adaptmr report`. Ablation sweeps are one section
 * over the base run and its variation runs. Re-exports and the dispatcher.
 */
import type { ResultStore } from '../../store/index.ts';
import { ablationsSection } from './ablations.ts';
import { adaptmrVsBaselinesSection } from './adaptmr-vs-baselines.ts';
import { beyondBenchmarksSection } from './beyond-benchmarks.ts';
import { efficiencySection } from './efficiency.ts';
import { existingSystemsSection } from './existing-systems.ts';
import { oracleSection } from './oracle-upper-bound.ts';
import { loadPlanRuns } from './plan-runs.ts';
import { routerTransferSection } from './router-transfer.ts';
import type { PlanSection } from './section.ts';

export type { PlanSection } from './section.ts';
export { efficiencyOf, type MethodEfficiency } from '../../eval/verdicts/efficiency.ts';
export { loadPlanRuns, type PlanRun } from './plan-runs.ts';

/** Sections in the plan's order (experiment 1 … 5), then the benchmark-transfer sections. */
export async function planSections(
  store: ResultStore,
  chartsDir: string,
  opts: { resamples?: number } = {},
): Promise<PlanSection[]> {
  const runs = await loadPlanRuns(store);
  const resamples = opts.resamples ?? 2000;
  const out: PlanSection[] = [];
  for (const run of runs.filter((r) => r.plan.experiment === 'existing-systems'))
    out.push(await existingSystemsSection(store, run, chartsDir));
  for (const run of runs.filter((r) => r.plan.experiment === 'oracle-upper-bound'))
    out.push(await oracleSection(store, run, chartsDir));
  for (const run of runs.filter((r) => r.plan.experiment === 'adaptmr-vs-baselines'))
    out.push(await adaptmrVsBaselinesSection(store, run, chartsDir));
  const ablations = runs.filter((r) => r.plan.experiment === 'ablations');
  if (ablations.length > 0) out.push(await ablationsSection(store, ablations, chartsDir));
  for (const run of runs.filter((r) => r.plan.experiment === 'efficiency'))
    out.push(await efficiencySection(store, run, chartsDir, resamples));
  // Beyond the plan's two benchmarks: its comparison on the others, and routing fitted on one benchmark tested on others.
  for (const run of runs.filter((r) => r.plan.experiment === 'beyond-benchmarks'))
    out.push(await beyondBenchmarksSection(store, run, chartsDir, resamples));
  for (const run of runs.filter((r) => r.plan.experiment === 'router-transfer'))
    out.push(await routerTransferSection(store, run, chartsDir, resamples));
  return out;
}
