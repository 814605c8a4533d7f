/**
 * Plan experiment 4 section: each ablation (a variation run of the sweep) against the full method (the base run):
 * the delta per type with its paired bootstrap 95% CI and Holm-adjusted p, from the `comparisons` table; each
 * ablation's plan prediction (a drop on its own type; w/o classifier a large overall drop) is checked as "met"
 * when the CI of that delta lies below 0 and its Holm-adjusted p is below 0.05. Chart: dot-and-whisker of the deltas.
 */
import { join } from 'node:path';
import Table from 'cli-table3';
import type { TopLevelSpec } from 'vega-lite';
import type { ResultStore } from '../../store/index.ts';
import { HOLM_ALPHA, formatComparison, type ComparisonCell } from '../comparison-cells.ts';
import { TYPE_COLUMNS } from '../per-type-table.ts';
import { renderChart } from '../render-chart.ts';
import { headlineComparisons, headlineTitle, runHeadlineTitle, type PlanRun } from './plan-runs.ts';
import type { PlanSection } from './section.ts';

/** The type each of the plan's ablations is predicted to hurt (variation ids of experiments/exp4-ablations.yaml). */
export const PREDICTED_DROP: Record<string, string> = {
  'no-classifier': 'all',
  'no-temporal-strategy': 'temporal',
  'no-update-strategy': 'update',
  'no-multi-hop-strategy': 'multi-hop',
  'no-abstention-strategy': 'abstention',
  'no-entity-rerank': 'factual',
};

/** Met only when the CI lies below 0 and the drop survives Holm's correction (both, so a skewed bootstrap
 * interval over a handful of discordant questions cannot carry the verdict alone). */
export function dropVerdict(c: Pick<ComparisonCell, 'meanDiff' | 'ciHigh' | 'pHolm'>): string {
  if (c.ciHigh < 0 && c.pHolm < HOLM_ALPHA) return 'met';
  if (c.meanDiff < 0) return 'not established (CI includes 0 or p_holm ≥ 0.05)';
  return 'not met (no drop)';
}

/** A sweep names its runs `<sweep>.<variation id>` (src/run/sweep-file.ts). */
const variationOf = (run: PlanRun): string => run.name.slice(run.name.indexOf('.') + 1);

/** Dot-and-whisker per variation and type; one column per dataset (each at its own headline, named in the facet). */
function chartSpec(cells: readonly (ComparisonCell & { variation: string })[], title: string, facetTitle: (dataset: string) => string): TopLevelSpec {
  const values = cells.map((c) => ({ dataset: facetTitle(c.dataset), variation: c.variation, type: c.adaptType, delta: c.meanDiff * 100, lo: c.ciLow * 100, hi: c.ciHigh * 100, significant: c.pHolm < 0.05 }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    config: { background: 'white' },
    data: { values },
    facet: { column: { field: 'dataset', type: 'nominal', title: null } },
    spec: {
      width: 360,
      height: { step: 14 },
      encoding: {
        y: { field: 'variation', type: 'nominal', title: null },
        yOffset: { field: 'type', type: 'nominal', sort: [...TYPE_COLUMNS] },
        color: { field: 'type', type: 'nominal', sort: [...TYPE_COLUMNS], title: 'AdaptMR type' },
      },
      layer: [
        { mark: { type: 'rule' }, encoding: { x: { field: 'lo', type: 'quantitative', title: 'delta vs full AdaptMR (points, 95% CI)' }, x2: { field: 'hi' } } },
        { mark: { type: 'point', filled: true, size: 40, tooltip: true }, encoding: { x: { field: 'delta', type: 'quantitative' } } },
        { mark: { type: 'rule', color: 'gray' }, encoding: { x: { datum: 0 } } },
      ],
    },
  };
}

export async function ablationsSection(store: ResultStore, runs: readonly PlanRun[], chartsDir: string): Promise<PlanSection> {
  // The base is the run the variations name as their reference run (stats.referenceRun).
  const base = runs.find((r) => runs.some((o) => o.referenceRun === r.name)) ?? runs[0]!;
  const h = base.headlineOf;
  const title = `Experiment 4 — ablations vs full AdaptMR (${base.name}): ${runHeadlineTitle(base)}`;
  const variations = runs.filter((r) => r !== base);
  const all = await headlineComparisons(store, variations.map((v) => v.runId), h, base.datasets);
  const cells = variations.flatMap((v) => all.filter((c) => c.run === v.runId && c.methodA === c.methodB).map((c) => ({ ...c, variation: variationOf(v) })));
  if (cells.length === 0) return { experiment: 'ablations', text: `${title}\nno comparisons yet (run every variation of the sweep into this file)`, charts: [] };
  const table = new Table({ head: ['dataset', 'ablation', ...TYPE_COLUMNS], style: { head: [], border: [], compact: true } });
  const lines: string[] = [];
  const datasets = [...new Set(cells.map((c) => c.dataset))];
  for (const dataset of datasets) {
    lines.push(`  ${dataset} (${headlineTitle(h(dataset))}):`);
    for (const v of [...new Set(cells.map((c) => c.variation))]) {
      const mine = cells.filter((c) => c.variation === v && c.dataset === dataset);
      if (mine.length === 0) continue;
      table.push([dataset, v, ...TYPE_COLUMNS.map((t) => {
        const c = mine.find((x) => x.adaptType === t);
        return c ? formatComparison(c) : '—';
      })]);
      const type = PREDICTED_DROP[v];
      const c = type ? mine.find((x) => x.adaptType === type) : undefined;
      if (type && c) lines.push(`    ${v}: predicted drop on ${type}: ${formatComparison(c)} → ${dropVerdict(c)}`);
      else if (type) {
        const why = type === 'abstention' ? 'retrieval metrics skip abstention questions; judge QA accuracy with an llm: block' : `${dataset} has no ${type} questions`;
        lines.push(`    ${v}: predicted drop on ${type}: no ${headlineTitle(h(dataset))} for ${type} questions on ${dataset} (${why})`);
      }
    }
  }
  const text = [
    `${title}  — cells: delta ablation − full [95% paired bootstrap CI] p_holm; * = significant after Holm`,
    table.toString(),
    ...(lines.length > 0 ? ['plan predictions:', ...lines] : []),
  ];
  const charts = [await renderChart(chartSpec(cells, title, (d) => `${d}: ${headlineTitle(h(d))}`), join(chartsDir, 'exp4-ablations'))];
  return { experiment: 'ablations', text: text.join('\n'), charts };
}
