/**
 * Plan experiment 3 section, the main table: every method's per-type mean with its 95% CI, the paired comparison of
 * each with the reference (unified embedding) from the `comparisons` table, and the plan's predictions checked on
 * the best AdaptMR variant overall: +5–10 points overall, +15–25 on the weak types (temporal, update — the ones the
 * plan's experiment 1 expects unified retrieval to fail on). Chart: grouped bars with whiskers.
 */
import { join } from 'node:path';
import type { ResultStore } from '../../store/index.ts';
import { HOLM_ALPHA, comparisonsTable, formatComparison, type ComparisonCell } from '../comparison-cells.ts';
import { perTypeTable } from '../per-type-table.ts';
import { recallByTypeSpec } from '../recall-by-type-spec.ts';
import { renderChart } from '../render-chart.ts';
import { seriesLabeller, type SeriesKey } from '../series-label.ts';
import { headlineComparisons, headlineTitle, runHeadlineTitle, typeMeansOfRuns, type PlanRun } from './plan-runs.ts';
import type { PlanSection } from './section.ts';

const WEAK_TYPES = ['temporal', 'update'] as const;

export function predictionLine(c: ComparisonCell, lo: number, hi: number, scope: string): string {
  const d = c.meanDiff * 100;
  const verdict = c.ciLow * 100 >= lo && c.pHolm < HOLM_ALPHA ? 'met (CI at or above the low end, significant after Holm)'
    : d >= lo ? `not established (point estimate ${d > hi ? 'above the range' : 'in range'}; CI reaches below ${lo} or not significant)` : 'not met';
  return `  ${scope}: ${c.methodA} − ${c.methodB} ${formatComparison(c)} → plan +${lo}–${hi} points: ${verdict}`;
}

export async function adaptmrVsBaselinesSection(store: ResultStore, run: PlanRun, chartsDir: string): Promise<PlanSection> {
  const label = seriesLabeller(await store.query<SeriesKey>(`SELECT DISTINCT run_id, method, granularity FROM methods WHERE run_id = $1`, [run.runId]));
  const rows = await typeMeansOfRuns(store, [run.runId], run.headlineOf, label);
  const title = `Experiment 3 — AdaptMR vs baselines: ${runHeadlineTitle(run)}, run ${run.name}`;
  const cmp = await headlineComparisons(store, [run.runId], run.headlineOf, run.datasets);
  const text = [perTypeTable(rows, title)];
  const table = comparisonsTable(cmp, `Paired comparisons vs ${run.reference} (${runHeadlineTitle(run)})`, label);
  if (table) text.push(table);
  const adaptmr = new Set(run.methods.filter((m) => m.method === 'adaptmr').map((m) => m.id));
  for (const dataset of [...new Set(cmp.map((c) => c.dataset))]) {
    const overall = cmp.filter((c) => c.dataset === dataset && c.adaptType === 'all' && adaptmr.has(c.methodA))
      // Ties (common on small samples) go to the stronger evidence: lower p_holm, then the higher CI low end.
      .sort((a, b) => b.meanDiff - a.meanDiff || a.pHolm - b.pHolm || b.ciLow - a.ciLow);
    const best = overall[0];
    if (!best) continue;
    const lines = [`${dataset} (${headlineTitle(run.headlineOf(dataset))}): plan predictions for the best AdaptMR variant overall (${best.methodA}; upper-bound methods excluded by construction):`,
      predictionLine(best, 5, 10, 'overall')];
    for (const t of WEAK_TYPES) {
      const c = cmp.find((x) => x.dataset === dataset && x.methodA === best.methodA && x.adaptType === t);
      if (c) lines.push(predictionLine(c, 15, 25, t));
    }
    text.push(lines.join('\n'));
  }
  const charts = rows.length > 0 ? [await renderChart(recallByTypeSpec(rows, { title }), join(chartsDir, 'exp3-adaptmr-vs-baselines'))] : [];
  return { experiment: 'adaptmr-vs-baselines', text: text.join('\n\n'), charts };
}
