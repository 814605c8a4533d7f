/**
 * Plan experiment 4 section: each ablation (a variation run of the sweep) against the full method (the base run):
 * the delta per type with its paired bootstrap 95% CI and Holm-adjusted p (one family of all the sweep's ablations
 * per dataset × metric × type), from the `comparisons` table; how many questions each ablation's ranking changed;
 * how the full system and each ablation routed each gold type; and the stored verdicts (`ablation:<id>`).
 * Chart: dot-and-whisker of the deltas.
 */
import { join } from 'node:path';
import Table from 'cli-table3';
import type { TopLevelSpec } from 'vega-lite';
import type { ResultStore } from '../../store/index.ts';
import { rankingChanges, variationOf } from '../../eval/verdicts/index.ts';
import { loadVerdictInput } from '../../store/index.ts';
import { formatComparison, type ComparisonCell } from '../comparison-cells.ts';
import { TYPE_COLUMNS } from '../per-type-table.ts';
import { renderChart } from '../render-chart.ts';
import { headlineComparisons, headlineTitle, runHeadlineTitle, type PlanRun } from './plan-runs.ts';
import { routingTables } from './routing-table.ts';
import type { PlanSection } from './section.ts';
import { sectionVerdicts } from './section-verdicts.ts';

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
  const cells = variations.flatMap((v) => all.filter((c) => c.run === v.runId && c.methodA === c.methodB).map((c) => ({ ...c, variation: variationOf(v.name) })));
  if (cells.length === 0) return { experiment: 'ablations', text: `${title}\nno comparisons yet (run every variation of the sweep into this file)`, charts: [] };
  const table = new Table({ head: ['dataset', 'ablation', ...TYPE_COLUMNS], style: { head: [], border: [], compact: true } });
  const datasets = [...new Set(cells.map((c) => c.dataset))];
  for (const dataset of datasets) {
    for (const v of [...new Set(cells.map((c) => c.variation))]) {
      const mine = cells.filter((c) => c.variation === v && c.dataset === dataset);
      if (mine.length === 0) continue;
      table.push([dataset, v, ...TYPE_COLUMNS.map((t) => {
        const c = mine.find((x) => x.adaptType === t);
        return c ? formatComparison(c) : '—';
      })]);
    }
  }
  // How much each ablation touches: questions whose ranking differs from the full system's, per type.
  const input = await loadVerdictInput(store);
  const method = base.reference ?? base.methods[0]?.id ?? 'adaptmr';
  const touched = new Table({ head: ['dataset', 'ablation', ...TYPE_COLUMNS], style: { head: [], border: [], compact: true } });
  for (const dataset of datasets) {
    for (const v of variations) {
      const changes = rankingChanges(input.retrievals, input.questions, { runId: v.runId, method }, { runId: base.runId, method }, dataset);
      if (changes.length === 0) continue;
      touched.push([dataset, variationOf(v.name), ...TYPE_COLUMNS.map((t) => {
        const c = changes.find((x) => x.adaptType === t);
        return c ? `${c.changed}/${c.total}` : '—';
      })]);
    }
  }
  const routed = [base, ...variations].map((r) => ({ runId: r.runId, label: r === base ? `full (${base.name})` : variationOf(r.name), method }));
  const text = [
    `${title}  — cells: delta ablation − full [95% paired bootstrap CI] p_holm (Holm over the ${variations.length} ablations of each dataset × metric × type); * = significant after Holm`,
    table.toString(),
    `Questions whose ranking the ablation changed (vs the full system), per gold type: an ablation can only move a mean through these\n${touched.toString()}`,
    routingTables(input.retrievals, input.questions, routed, datasets),
    await sectionVerdicts(store, base.experiment, 'Verdicts (a drop claimed for every ablation and type; the plan predicts one on the named type)'),
  ].filter((x) => x !== '');
  const charts = [await renderChart(chartSpec(cells, title, (d) => `${d}: ${headlineTitle(h(d))}`), join(chartsDir, 'exp4-ablations'))];
  return { experiment: 'ablations', text: text.join('\n'), charts };
}
