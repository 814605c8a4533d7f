/**
 * Vega-Lite spec of the per-type grouped bar chart: x = AdaptMR type (then `all`), bars within a type offset by
 * method (xOffset) and coloured by method, one column facet per dataset, y = mean as a percentage. When the rows
 * carry bootstrap CIs, each bar gets a whisker from ci_low to ci_high (a rule layer over the bars). A pure function
 * of its rows, so it is unit-testable and reusable for any metric (the QA accuracy chart and the plan experiments'
 * charts use it too); n, the CI (and sd over judge runs, when present) are in the tooltip and the data. Without
 * CIs the x scale is independent per dataset facet, so a dataset shows only the types it has (LoCoMo has no
 * `update` question). Colours come from the shared palette (palette.ts); gold-type (oracle) bars are outlined.
 * Methods without retrieval metrics (n/a) are left out of the chart rather than drawn as 0.
 */
import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, colorScale, markedLabel, upperBoundEncoding } from './palette.ts';
import { fitMeta, labelPx, wrapTitle } from './chart-fit.ts';
import { typeColumns } from './per-type-table.ts';
import type { TypeMeanRow } from './type-means.ts';

export interface RecallByTypeOptions {
  /** Y axis / chart title, e.g. "recall_any@5 (session)". */
  title?: string;
}

/** A bar's data: dataset, marked method, type, mean and n, with sd and CI when the row has them. */
function chartRow(r: TypeMeanRow) {
  return {
    dataset: r.dataset,
    method: markedLabel(r.series, r.upperBound === true),
    type: r.adaptType,
    mean: r.mean,
    n: r.n,
    upperBound: r.upperBound === true,
    ...(r.sd !== undefined ? { sd: r.sd } : {}),
    ...(r.ciLow !== undefined ? { ci_low: r.ciLow, ci_high: r.ciHigh } : {}),
  };
}

/** Colour by method: full names in a legend under the chart, in as many columns as fit a ~1,000 px wide chart. */
function methodColor(methods: string[]) {
  const widest = Math.max(0, ...methods.map(labelPx)) + 24;
  return {
    field: 'method',
    type: 'nominal' as const,
    title: 'method',
    scale: colorScale(methods),
    legend: { orient: 'bottom' as const, columns: Math.max(1, Math.min(4, Math.floor(1000 / widest))) },
  };
}

function tooltipOf(withCi: boolean, withSd: boolean) {
  return [
    { field: 'dataset' },
    { field: 'method' },
    { field: 'type' },
    { field: 'mean', format: '.1%' },
    { field: 'n', title: 'n questions' },
    ...(withCi
      ? [
          { field: 'ci_low', title: '95% CI low', format: '.1%' },
          { field: 'ci_high', title: '95% CI high', format: '.1%' },
        ]
      : []),
    ...(withSd ? [{ field: 'sd', title: 'sd over judge runs', format: '.1%' }] : []),
  ];
}

export function recallByTypeSpec(rows: readonly TypeMeanRow[], opts: RecallByTypeOptions = {}): TopLevelSpec {
  const title = opts.title ?? 'recall by AdaptMR type';
  const shown = rows.filter((r) => !r.na);
  const withCi = shown.some((r) => r.ciLow !== undefined);
  const values = shown.map(chartRow);
  const x = {
    field: 'type',
    type: 'nominal' as const,
    sort: typeColumns(shown.map((r) => r.adaptType)),
    title: 'AdaptMR type',
    axis: { labelAngle: -30 },
  };
  const y = {
    field: 'mean',
    type: 'quantitative' as const,
    title: 'mean over counted questions',
    scale: { domain: [0, 1] },
    axis: { format: '.0%' },
  };
  const methods = [...new Set(shown.map((r) => markedLabel(r.series, r.upperBound === true)))];
  const color = methodColor(methods);
  // Many methods: one dataset above the other, so a panel has room for a bar per method and type.
  const datasets = new Set(shown.map((r) => r.dataset)).size;
  const columns = methods.length > 6 ? 1 : Math.min(2, Math.max(1, datasets));
  const step = methods.length > 10 ? 9 : 14;
  const tooltip = tooltipOf(
    withCi,
    shown.some((r) => r.sd !== undefined),
  );
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: wrapTitle(title),
    data: { values },
    config: CHART_CONFIG,
  };
  if (!withCi) {
    return {
      ...base,
      mark: { type: 'bar', tooltip: true },
      width: { step },
      height: 220,
      encoding: {
        facet: { field: 'dataset', type: 'nominal', title: null, columns },
        x,
        xOffset: { field: 'method', type: 'nominal' },
        y,
        color,
        ...upperBoundEncoding(),
        tooltip,
      },
      resolve: { scale: { x: 'independent' } },
    };
  }
  // Layered (bars + whiskers): x scales shared across dataset facets, since independent scales over layers make
  // vega-lite union domains across sources (and warn).
  return {
    ...base,
    // On the HTML page the panels take the container's width (chart-fit.ts); files keep the step widths.
    usermeta: fitMeta(
      Math.max(360, typeColumns(shown.map((r) => r.adaptType)).length * methods.length * 7),
      70,
      datasets,
    ),
    facet: { field: 'dataset', type: 'nominal', title: null },
    columns,
    spec: {
      width: { step },
      height: 220,
      encoding: { x, xOffset: { field: 'method', type: 'nominal' } },
      layer: [
        { mark: { type: 'bar', tooltip: true }, encoding: { y, color, ...upperBoundEncoding(), tooltip } },
        {
          mark: { type: 'rule', color: 'black' },
          encoding: { y: { field: 'ci_low', type: 'quantitative' }, y2: { field: 'ci_high' } },
        },
      ],
    },
  };
}
