/**
 * Plan experiment 1 section (plan §3.4, motivation): per-type means with 95% CIs of every system the run has
 * (stand-ins marked "(offline)", methods that do not rank "n/a"), the grouped-bars chart with whiskers, the plan's
 * systems the run did not include (declared in `plan.systems`, compared with the registry names of the run's
 * methods), and the stored verdicts of the plan's prediction — factual high, temporal and update low
 * (`factual-high-weak-low`, src/eval/verdicts/claims-existing.ts).
 */
import { join } from 'node:path';
import type { ResultStore } from '../../store/index.ts';
import { perTypeTable } from '../../report/per-type-table.ts';
import { recallByTypeSpec } from '../../report/recall-by-type-spec.ts';
import { renderChart } from '../../report/render-chart.ts';
import { labelledTypeMeans } from '../../report/plan/labelled-type-means.ts';
import { runHeadlineTitle, type PlanRun } from '../../report/plan/plan-runs.ts';
import type { PlanSection } from '../../report/plan/section.ts';
import { sectionVerdicts } from '../../report/plan/section-verdicts.ts';

export async function existingSystemsSection(
  store: ResultStore,
  run: PlanRun,
  chartsDir: string,
): Promise<PlanSection> {
  // One run: a method id names one series; its units may differ by dataset (the headline title says which), so the
  // label leaves granularity out and each method keeps one colour across the dataset facets.
  const { rows } = await labelledTypeMeans(store, run, 'method');
  const title = `Experiment 1 — existing systems by query type: ${runHeadlineTitle(run)}, run ${run.name}`;
  const text = [perTypeTable(rows, title)];
  const ran = new Set(run.methods.map((m) => m.method));
  const missing = (run.plan.systems ?? []).filter((s) => !ran.has(s));
  text.push(
    missing.length > 0
      ? `plan systems missing from this run: ${missing.join(', ')} (not in the harness yet, or not listed under methods:)`
      : 'every plan system declared in plan.systems ran',
  );
  text.push(
    await sectionVerdicts(
      store,
      run.experiment,
      'Verdicts, plan prediction "factual high (~70–80%), temporal and update low (~30–50%)" (factual − weak type)',
    ),
  );
  const charts = rows.some((r) => !r.na)
    ? [await renderChart(recallByTypeSpec(rows, { title }), join(chartsDir, 'exp1-existing-systems'))]
    : [];
  return { experiment: 'existing-systems', text: text.join('\n'), charts, title, notes: [text[1]!] };
}
