/**
 * The page's per-type chart as a dot plot: one panel per dataset × AdaptMR type the dataset has (no empty type panel
 * repeated in every dataset), methods as rows sorted by their mean in that panel, a dot at the mean with its 95% CI as
 * a line, coloured by method (palette.ts) and shaped by role — a baseline a square, an AdaptMR variant a circle, one
 * of its strategies a diamond, gold-type routing a triangle, an offline stand-in a cross — so fifteen methods stay
 * legible where fifteen adjacent bars per type ran together. Follows the page's metric picker (`pick` param).
 */
import type { TopLevelSpec } from 'vega-lite';
import { fitMeta } from '../chart-fit.ts';
import { TYPE_COLUMNS } from '../per-type-table.ts';
import { CHART_CONFIG, colorScale, markedLabel } from '../palette.ts';
import { comboLabel, comboOf, HEADLINE, isHeadlineRow } from './chart-specs.ts';
import type { ReportData, TypeScore } from './load-data.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const PICKED = `pick === '${HEADLINE}' ? datum.headline : datum.combo === pick`;
const ROLES = ['baseline', 'AdaptMR', 'AdaptMR strategy', 'gold-type routing', 'stand-in (offline)'] as const;
const SHAPES = ['square', 'circle', 'diamond', 'triangle-up', 'cross'];

/** A series' role, from the methods table (kind, gold type, degraded). */
export function roleOf(data: Pick<ReportData, 'methods'>, series: string): (typeof ROLES)[number] {
  const m = data.methods.find((x) => x.series === series);
  if (!m) return 'baseline';
  if (m.upperBound) return 'gold-type routing';
  if (m.degraded) return 'stand-in (offline)';
  if (m.kind === 'adaptmr') return 'AdaptMR';
  // AdaptMR's own strategies are named strategy-<type> in the committed files; unified over hybrid is a baseline.
  return m.kind === 'strategy' && m.method.startsWith('strategy-') ? 'AdaptMR strategy' : 'baseline';
}

/** Panel order within a dataset: the AdaptMR types in table order (a native type `<type> · <label>` under its type). */
function typeOrder(type: string): number {
  const i = TYPE_COLUMNS.indexOf(type.split(' · ')[0] as (typeof TYPE_COLUMNS)[number]);
  return i < 0 ? TYPE_COLUMNS.length : i;
}

/** A score row as a dot: marked method, its role's shape, and the panel order (dataset, then type). */
function dotValue(data: Pick<ReportData, 'headlines' | 'methods'>, datasets: readonly string[], r: TypeScore) {
  return {
    dataset: r.dataset,
    method: markedLabel(r.series, r.upperBound),
    role: roleOf(data, r.series),
    combo: comboOf(r),
    comboLabel: comboLabel(r),
    headline: isHeadlineRow(data.headlines, r),
    type: r.type,
    order: datasets.indexOf(r.dataset) * 100 + typeOrder(r.type),
    n: r.n,
    mean: r.mean,
    ciLow: r.ciLow,
    ciHigh: r.ciHigh,
  };
}

const DOT_TOOLTIP = [
  { field: 'dataset' },
  { field: 'type' },
  { field: 'method' },
  { field: 'role' },
  { field: 'mean', format: '.1%' },
  { field: 'ciLow', title: 'CI low', format: '.1%' },
  { field: 'ciHigh', title: 'CI high', format: '.1%' },
  { field: 'n', title: 'n questions' },
];

export function typeDotSpec(
  data: Pick<ReportData, 'scores' | 'headlines' | 'colors' | 'methods'>,
  pick: string,
  rows: readonly TypeScore[] = data.scores,
): TopLevelSpec {
  const datasets = [...new Set(rows.map((r) => r.dataset))].sort();
  const values = rows.map((r) => dotValue(data, datasets, r));
  const methods = [...new Set(values.map((v) => v.method))].sort();
  const fallback = colorScale(methods);
  const color = { domain: methods, range: methods.map((l, i) => data.colors[l] ?? fallback.range[i]!) };
  const panels = new Set(values.map((v) => `${v.dataset}\t${v.type}`)).size;
  const y = { field: 'method', type: 'nominal', sort: { field: 'mean', order: 'descending' }, title: null } as const;
  const x = {
    field: 'mean',
    type: 'quantitative',
    scale: { domain: [0, 1] },
    axis: { format: '.0%' },
    title: 'mean (95% CI)',
  } as const;
  const whiskers = {
    mark: { type: 'rule', color: '#555' },
    transform: [{ filter: 'isValid(datum.ciLow)' }],
    encoding: { y, x: { field: 'ciLow', type: 'quantitative' }, x2: { field: 'ciHigh' } },
  };
  const dots = {
    mark: { type: 'point', filled: true, size: 70, tooltip: true },
    encoding: {
      y,
      x,
      color: { field: 'method', type: 'nominal', scale: color, legend: null },
      shape: {
        field: 'role',
        type: 'nominal',
        scale: { domain: [...ROLES], range: SHAPES },
        legend: { orient: 'bottom', title: 'role' },
      },
      tooltip: DOT_TOOLTIP,
    },
  };
  return {
    $schema: SCHEMA,
    usermeta: fitMeta(260, 190, Math.max(1, panels)),
    params: [{ name: 'pick', value: pick }],
    data: { values },
    transform: [
      { filter: PICKED },
      { calculate: `datum.dataset + ' · ' + datum.type + '\\n' + datum.comboLabel`, as: 'panel' },
    ],
    facet: {
      field: 'panel',
      type: 'nominal',
      title: null,
      sort: { field: 'order', op: 'min' },
      header: { labelFontWeight: 'bold' },
    },
    columns: Math.min(3, Math.max(1, panels)),
    // A row per method (14 px), at least 160 px: a panel of two or three methods stays a chart, not a strip.
    spec: { width: 260, height: Math.max(160, 14 * methods.length), layer: [whiskers, dots] },
    resolve: { scale: { y: 'independent' } },
    config: CHART_CONFIG,
  } as TopLevelSpec;
}
