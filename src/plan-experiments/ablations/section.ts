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
import { rankingChanges, variationOf, type VerdictInput } from '../../eval/verdicts/index.ts';
import { loadVerdictInput } from '../../store/index.ts';
import { formatComparison, type ComparisonCell } from '../../report/comparison-cells.ts';
import { TYPE_COLUMNS, typeColumns } from '../../report/per-type-table.ts';
import { renderChart } from '../../report/render-chart.ts';
import { CHART_CONFIG, typeColorScale } from '../../report/palette.ts';
import { fitMeta, reserveFor, wrapTitle } from '../../report/chart-fit.ts';
import { pValueText, variationLabel } from '../../report/claim-label.ts';
import { headlineComparisons, headlineTitle, runHeadlineTitle, type PlanRun } from '../../report/plan/plan-runs.ts';
import { routingTableData } from '../../report/plan/routing-table.ts';
import { tableData, type PlanSection } from '../../report/plan/section.ts';
import { sectionVerdicts } from '../../report/plan/section-verdicts.ts';

/**
 * Forest plot of the ablations: one row per variation ("w/o temporal strategy"), a dot and whisker per type (offset
 * within the row, coloured by type), the zero line under them; one panel per dataset, each at its own headline
 * (named under the dataset in the panel title), wrapped into rows on a narrow page (chart-fit.ts).
 */
export function ablationChartSpec(
  cells: readonly (ComparisonCell & { variation: string })[],
  title: string,
  headline: (dataset: string) => string,
): TopLevelSpec {
  const values = cells.map((c) => ({
    dataset: c.dataset,
    headline: headline(c.dataset),
    variation: variationLabel(c.variation),
    type: c.adaptType,
    delta: c.meanDiff * 100,
    lo: c.ciLow * 100,
    hi: c.ciHigh * 100,
    n: c.nPairs,
    pHolm: pValueText(c.pHolm),
    significant: c.pHolm < 0.05 ? 'p_holm < 0.05' : 'not significant',
  }));
  const labels = [...new Set(values.map((v) => v.variation))];
  const types = typeColumns(cells.map((c) => c.adaptType));
  const datasets = [...new Set(values.map((v) => v.dataset))];
  const y = { field: 'variation', type: 'nominal' as const, title: null, sort: labels };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: wrapTitle(title),
    config: CHART_CONFIG,
    usermeta: fitMeta(320, reserveFor(labels), datasets.length),
    data: { values },
    // The panel title: the dataset, and on a second line its headline metric.
    transform: [{ calculate: "datum.dataset + '\\n' + datum.headline", as: 'panel' }],
    facet: {
      field: 'panel',
      type: 'nominal',
      title: null,
      header: { labelExpr: "split(datum.label, '\\n')", labelFontSize: 12, labelFontWeight: 'bold' },
    },
    columns: Math.min(2, datasets.length),
    spec: {
      width: 340,
      // The step of one type's row inside a variation's band (the offset scale).
      height: { step: Math.max(7, Math.floor(60 / types.length)) },
      encoding: { y, yOffset: { field: 'type', type: 'nominal', sort: types } },
      layer: forestLayers(types),
    },
    resolve: { scale: { y: 'independent' } },
  } as TopLevelSpec;
}

/** The forest's layers: the zero line, each type's CI whisker and its dot (with the tooltip). */
function forestLayers(types: string[]): unknown[] {
  const x = { type: 'quantitative' as const, title: 'ablation − full system (points, 95% CI)' };
  return [
    // Drawn first, so a dot exactly at 0 (no question changed) stays visible over it.
    {
      mark: { type: 'rule', color: '#888', strokeDash: [3, 3] },
      encoding: { x: { datum: 0, type: 'quantitative' }, y: null, yOffset: null },
    },
    {
      mark: { type: 'rule', strokeWidth: 1.5 },
      encoding: {
        x: { field: 'lo', ...x },
        x2: { field: 'hi' },
        color: {
          field: 'type',
          type: 'nominal',
          title: 'AdaptMR type',
          scale: typeColorScale(types),
          legend: { orient: 'bottom', direction: 'horizontal' },
        },
      },
    },
    {
      mark: { type: 'point', filled: true, size: 45 },
      encoding: {
        x: { field: 'delta', ...x },
        color: { field: 'type', type: 'nominal' },
        tooltip: [
          { field: 'dataset' },
          { field: 'variation' },
          { field: 'type' },
          { field: 'delta', title: 'delta (points)', format: '+.1f' },
          { field: 'lo', title: 'CI low', format: '+.1f' },
          { field: 'hi', title: 'CI high', format: '+.1f' },
          { field: 'n', title: 'pairs' },
          { field: 'pHolm', title: 'p_holm' },
        ],
      },
    },
  ];
}

export async function ablationsSection(
  store: ResultStore,
  runs: readonly PlanRun[],
  chartsDir: string,
): Promise<PlanSection> {
  // The base is the run the variations name as their reference run (stats.referenceRun).
  const base = runs.find((r) => runs.some((o) => o.referenceRun === r.name)) ?? runs[0]!;
  const h = base.headlineOf;
  const title = `Experiment 4 — ablations vs full AdaptMR (${base.name}): ${runHeadlineTitle(base)}`;
  const variations = runs.filter((r) => r !== base);
  const all = await headlineComparisons(
    store,
    variations.map((v) => v.runId),
    h,
    base.datasets,
  );
  const cells = variations.flatMap((v) =>
    all
      .filter((c) => c.run === v.runId && c.methodA === c.methodB)
      .map((c) => ({ ...c, variation: variationOf(v.name) })),
  );
  if (cells.length === 0)
    return {
      experiment: 'ablations',
      text: `${title}\nno comparisons yet (run every variation of the sweep into this file)`,
      charts: [],
    };
  const datasets = [...new Set(cells.map((c) => c.dataset))];
  const { table, pageTable } = deltaTables(cells, datasets);
  // How much each ablation touches: questions whose ranking differs from the full system's, per type.
  const input = await loadVerdictInput(store);
  const method = base.reference ?? base.methods[0]?.id ?? 'adaptmr';
  const touched = touchedTable(input, base, variations, method, datasets);
  const routed = [base, ...variations].map((r) => ({
    runId: r.runId,
    label: r === base ? `full (${base.name})` : variationOf(r.name),
    method,
  }));
  const routing = routingTableData(input.retrievals, input.questions, routed, datasets);
  const head = `${title}  — cells: delta ablation − full [95% paired bootstrap CI] p_holm (Holm over the ${variations.length} ablations of each dataset × metric × type); * = significant after Holm`;
  const touchedTitle =
    'Questions whose ranking the ablation changed (vs the full system), per gold type: an ablation can only move a mean through these';
  const text = [
    head,
    table.toString(),
    `${touchedTitle}\n${touched.toString()}`,
    routing.map((t) => t.text).join('\n'),
    await sectionVerdicts(
      store,
      base.experiment,
      'Verdicts (a drop claimed for every ablation and type; the plan predicts one on the named type)',
    ),
  ].filter((x) => x !== '');
  const charts = [
    await renderChart(
      ablationChartSpec(cells, title, (d) => headlineTitle(h(d))),
      join(chartsDir, 'exp4-ablations'),
    ),
  ];
  // For the HTML report: the variation in words in the tables' second column.
  const named = (t: ReturnType<typeof tableData>): ReturnType<typeof tableData> => ({
    ...t,
    head: t.head.map((x) => (x === 'ablation' ? 'variation' : x)),
    rows: t.rows.map((r) => [r[0]!, variationLabel(r[1]!), ...r.slice(2)]),
  });
  return {
    experiment: 'ablations',
    text: text.join('\n'),
    charts,
    title,
    notes: [
      `delta = ablation − full system, in points [95% paired bootstrap CI], p_holm over the ${variations.length} ablations of each dataset × metric × type; * = significant after Holm`,
    ],
    tables: [
      named(tableData('Delta per variation and type (points)', pageTable)),
      named(tableData(touchedTitle, touched)),
      ...routing.map(({ text: _t, ...t }) => t),
    ],
  };
}

type AblationCell = ComparisonCell & { variation: string };

/** The deltas per dataset × variation × type: the terminal's (the metric's fractions) and the page's (points). */
function deltaTables(cells: readonly AblationCell[], datasets: readonly string[]) {
  const table = new Table({
    head: ['dataset', 'ablation', ...TYPE_COLUMNS],
    style: { head: [], border: [], compact: true },
  });
  // The page's copy in points, the unit of its other tables; the terminal keeps the metric's fractions.
  const pageTable = new Table({ head: ['dataset', 'ablation', ...TYPE_COLUMNS] });
  for (const dataset of datasets) {
    for (const v of [...new Set(cells.map((c) => c.variation))]) {
      const mine = cells.filter((c) => c.variation === v && c.dataset === dataset);
      if (mine.length === 0) continue;
      const cellsIn = (unit: 'fraction' | 'points') =>
        TYPE_COLUMNS.map((t) => {
          const c = mine.find((x) => x.adaptType === t);
          return c ? formatComparison(c, unit) : '—';
        });
      table.push([dataset, v, ...cellsIn('fraction')]);
      pageTable.push([dataset, v, ...cellsIn('points')]);
    }
  }
  return { table, pageTable };
}

/** Questions whose ranking each ablation changed against the full system, per dataset and type (changed/total). */
function touchedTable(
  input: Pick<VerdictInput, 'retrievals' | 'questions'>,
  base: PlanRun,
  variations: readonly PlanRun[],
  method: string,
  datasets: readonly string[],
): Table.Table {
  const touched = new Table({
    head: ['dataset', 'ablation', ...TYPE_COLUMNS],
    style: { head: [], border: [], compact: true },
  });
  for (const dataset of datasets) {
    for (const v of variations) {
      const changes = rankingChanges(
        input.retrievals,
        input.questions,
        { runId: v.runId, method },
        { runId: base.runId, method },
        dataset,
      );
      if (changes.length === 0) continue;
      touched.push([
        dataset,
        variationOf(v.name),
        ...TYPE_COLUMNS.map((t) => {
          const c = changes.find((x) => x.adaptType === t);
          return c ? `${c.changed}/${c.total}` : '—';
        }),
      ]);
    }
  }
  return touched;
}
