/**
 * Plan experiment 3 section, the main table: every method's per-type mean with its 95% CI (stand-ins marked
 * "(offline)", full context "n/a": it does not rank), the paired comparison of each with the reference (unified
 * embedding) from the `comparisons` table with its declared family (primary: AdaptMR variants; exploratory: the
 * rest; a stand-in that returned nothing is left out of every family, and the section says so), how each AdaptMR
 * method routed the questions of each gold type, and the stored verdicts: vs unified, vs each baseline and all of them, and
 * AdaptMR over the BM25 / hybrid first stage vs that first stage alone. Chart: grouped bars with whiskers.
 */
import { join } from 'node:path';
import { ClaimContext, adaptmrVariants } from '../../eval/verdicts/index.ts';
import { loadVerdictInput, type ResultStore } from '../../store/index.ts';
import { comparisonsTable } from '../../report/comparison-cells.ts';
import { perTypeTable } from '../../report/per-type-table.ts';
import { recallByTypeSpec } from '../../report/recall-by-type-spec.ts';
import { renderChart } from '../../report/render-chart.ts';
import { markedMethod } from '../../report/series-label.ts';
import { labelledTypeMeans } from '../../report/plan/labelled-type-means.ts';
import { headlineComparisons, runHeadlineTitle, type PlanRun } from '../../report/plan/plan-runs.ts';
import { routingTableData } from '../../report/plan/routing-table.ts';
import type { PlanSection } from '../../report/plan/section.ts';
import { sectionVerdicts } from '../../report/plan/section-verdicts.ts';

export async function adaptmrVsBaselinesSection(
  store: ResultStore,
  run: PlanRun,
  chartsDir: string,
): Promise<PlanSection> {
  const { marks, label, rows } = await labelledTypeMeans(store, run);
  const title = `Experiment 3 — AdaptMR vs baselines: ${runHeadlineTitle(run)}, run ${run.name}`;
  const cmp = await headlineComparisons(store, [run.runId], run.headlineOf, run.datasets);
  const text = [perTypeTable(rows, title)];
  const table = comparisonsTable(cmp, `Paired comparisons vs ${run.reference} (${runHeadlineTitle(run)})`, label);
  if (table) text.push(table);
  // Stand-ins left out of every Holm family, with the reason the statistics step stored.
  const excluded = await store.query<{ method_a: string; dataset: string; family: string }>(
    `SELECT DISTINCT method_a, dataset, family FROM comparisons WHERE run = $1 AND starts_with(family, 'excluded') ORDER BY ALL`,
    [run.runId],
  );
  if (excluded.length > 0) {
    text.push(
      excluded
        .map(
          (e) =>
            `${markedMethod(marks, run.runId, e.method_a)} on ${e.dataset}: left out of every Holm family (${e.family.replace(/^excluded: /, '')}); its p_holm is n/a`,
        )
        .join('\n'),
    );
  }
  const input = await loadVerdictInput(store);
  const ctx = new ClaimContext(input);
  const variants = adaptmrVariants(ctx, run.input).map((m) => ({
    runId: run.runId,
    label: markedMethod(marks, run.runId, m.id),
    method: m.id,
  }));
  const routing = routingTableData(input.retrievals, input.questions, variants, run.datasets);
  if (routing.length > 0) text.push(routing.map((t) => t.text).join('\n'));
  const notes = excluded.length > 0 ? [text[text.length - (routing.length > 0 ? 2 : 1)]!] : [];
  text.push(
    await sectionVerdicts(
      store,
      run.experiment,
      'Verdicts (primary families per dataset — the overall claims, and all per-type claims together: every AdaptMR variant vs unified and vs each baseline; exploratory: the rest; stand-ins in no family)',
    ),
  );
  const charts = rows.some((r) => !r.na)
    ? [await renderChart(recallByTypeSpec(rows, { title }), join(chartsDir, 'exp3-adaptmr-vs-baselines'))]
    : [];
  return {
    experiment: 'adaptmr-vs-baselines',
    text: text.join('\n\n'),
    charts,
    title,
    notes,
    tables: routing.map(({ text: _t, ...t }) => t),
  };
}
