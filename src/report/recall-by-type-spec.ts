/**
 * Vega-Lite spec of the per-type grouped bar chart: x = AdaptMR type (then `all`), bars within a type offset by
 * method (xOffset) and coloured by method, one column facet per dataset, y = mean as a percentage. A pure function
 * of its rows, so it is unit-testable and reusable for any metric (the QA accuracy chart uses it too); n (and sd
 * over judge runs, when present) is in the tooltip and the data. The x scale is independent per dataset facet, so a
 * dataset shows only the types it has (LoCoMo has no `update` question) instead of an empty slot. Colours come from
 * the shared palette (palette.ts); upper-bound (oracle) bars are outlined.
 */
import type { TopLevelSpec } from 'vega-lite';
import { colorScale, markedLabel, upperBoundEncoding } from './palette.ts';
import { TYPE_COLUMNS } from './per-type-table.ts';
import type { TypeMeanRow } from './type-means.ts';

export interface RecallByTypeOptions {
  /** Y axis / chart title, e.g. "recall_any@5 (session)". */
  title?: string;
}

export function recallByTypeSpec(rows: readonly TypeMeanRow[], opts: RecallByTypeOptions = {}): TopLevelSpec {
  const title = opts.title ?? 'recall by AdaptMR type';
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: {
      values: rows.map((r) => ({ dataset: r.dataset, method: markedLabel(r.series, r.upperBound === true), type: r.adaptType, mean: r.mean, n: r.n, upperBound: r.upperBound === true, ...(r.sd !== undefined ? { sd: r.sd } : {}) })),
    },
    mark: { type: 'bar', tooltip: true },
    width: { step: 14 },
    height: 220,
    encoding: {
      column: { field: 'dataset', type: 'nominal', title: null },
      x: { field: 'type', type: 'nominal', sort: [...TYPE_COLUMNS], title: 'AdaptMR type', axis: { labelAngle: -30 } },
      xOffset: { field: 'method', type: 'nominal' },
      y: { field: 'mean', type: 'quantitative', title: 'mean over counted questions', scale: { domain: [0, 1] }, axis: { format: '%' } },
      color: { field: 'method', type: 'nominal', title: 'method', scale: colorScale(rows.map((r) => markedLabel(r.series, r.upperBound === true))) },
      ...upperBoundEncoding(),
      tooltip: [
        { field: 'dataset' }, { field: 'method' }, { field: 'type' },
        { field: 'mean', format: '.1%' }, { field: 'n', title: 'n questions' },
        ...(rows.some((r) => r.sd !== undefined) ? [{ field: 'sd', title: 'sd over judge runs', format: '.1%' }] : []),
      ],
    },
    resolve: { scale: { x: 'independent' } },
    config: { background: 'white' },
  };
}
