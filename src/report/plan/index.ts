/**
 * The plan's experiments as report sections: each run whose config has a `plan:` block gets its experiment's
 * section(s) — text, chart(s) and its stored verdicts — in `adaptmr report`, made by the experiment's entry
 * (src/plan-experiments/registry.ts, in the plan's order: experiment 1 … 5, then the benchmark-transfer sections).
 */
import { PLAN_EXPERIMENT_REGISTRY } from '../../plan-experiments/registry.ts';
import type { ResultStore } from '../../store/index.ts';
import { loadPlanRuns } from './plan-runs.ts';
import type { PlanSection } from './section.ts';

export type { PlanSection } from './section.ts';
export { efficiencyOf, type MethodEfficiency } from '../../eval/verdicts/efficiency.ts';
export { loadPlanRuns, type PlanRun } from './plan-runs.ts';

/** Every experiment's sections over its runs (an experiment without a run in the file has none). */
export async function planSections(
  store: ResultStore,
  chartsDir: string,
  opts: { resamples?: number } = {},
): Promise<PlanSection[]> {
  const runs = await loadPlanRuns(store);
  const options = { chartsDir, resamples: opts.resamples ?? 2000 };
  const out: PlanSection[] = [];
  for (const experiment of PLAN_EXPERIMENT_REGISTRY) {
    const own = runs.filter((r) => r.plan.experiment === experiment.name);
    if (own.length > 0) out.push(...(await experiment.sections(store, own, options)));
  }
  return out;
}
