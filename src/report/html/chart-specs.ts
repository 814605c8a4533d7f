/**
 * Vega-Lite specs of the HTML report's interactive charts, also drawn as PNG by the notebooks (pure functions of
 * the loaded rows). Charts that follow the page's metric picker declare a `pick` param — `headline` (each dataset at
 * its own headline metric, level and k, side by side) or `metric|level|k` — and filter on it, so the page updates a
 * chart with `view.signal('pick', …)` without re-embedding it. One panel per dataset in a wrapped facet whose
 * columns and widths the page fits to its container (chart-fit.ts); legends sit under the chart with full names.
 * Methods are coloured by their method id (palette.ts, `ReportData.colors`), gold-type (oracle) methods outlined; whiskers are the
 * file's 95% CIs when it has them.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { VerdictRow } from '../../store/index.ts';
import { fitMeta, labelPx, reserveFor, wrapTitle } from '../chart-fit.ts';
import { claimLabel, pValueText, variationLabel, variationOfRun } from '../claim-label.ts';
import { TYPE_COLUMNS } from '../per-type-table.ts';
import { CHART_CONFIG, colorScale, markedLabel, upperBoundEncoding } from '../palette.ts';
import type { Comparison, DatasetHeadline, Efficiency, ReportData, RouteShare, TypeScore } from './load-data.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** k as the pickers hold it: QA metrics have no k. */
export const kKey = (k: number | null | undefined): string => (k === null || k === undefined ? '-' : String(k));

/** The picker value of a metric cell. */
export const comboOf = (r: { metric: string; level: string; k: number | null | undefined }): string =>
  `${r.metric}|${r.level}|${kKey(r.k)}`;

/** `recall_any@10 (session level)`. */
export const comboLabel = (r: { metric: string; level: string; k: number | null | undefined }): string =>
  `${r.metric}${r.k === null || r.k === undefined ? '' : `@${r.k}`} (${r.level} level)`;

/** The picker value that shows every dataset at its own headline. */
export const HEADLINE = 'headline';

/** Whether a row is its dataset's headline cell. */
export function isHeadlineRow(
  headlines: Readonly<Record<string, DatasetHeadline>>,
  r: { dataset: string; metric: string; level: string; k: number | null | undefined },
): boolean {
  const h = headlines[r.dataset];
  return h !== undefined && h.metric === r.metric && h.level === r.level && kKey(h.k) === kKey(r.k);
}

const PICKED = `pick === '${HEADLINE}' ? datum.headline : datum.combo === pick`;
/** The panel title: the dataset, and under it the metric shown (the headline differs per dataset). */
const PANEL = `datum.dataset + '\\n' + datum.comboLabel`;
const panelFacet = {
  field: 'panel',
  type: 'nominal',
  title: null,
  header: { labelExpr: "split(datum.label, '\\n')", labelFontSize: 12, labelFontWeight: 'bold' },
} as const;

function pickParam(pick: string): { name: string; value: string }[] {
  return [{ name: 'pick', value: pick }];
}

/** Series label → colour scale for vega-lite (the file's own assignment). */
function seriesScale(
  data: Pick<ReportData, 'colors'>,
  labels: Iterable<string>,
): { domain: string[]; range: string[] } {
  const domain = [...new Set(labels)].sort();
  const fallback = colorScale(domain);
  return { domain, range: domain.map((l, i) => data.colors[l] ?? fallback.range[i]!) };
}

/** A legend under the chart, in as many columns as an ~900 px chart has room for at full label width. */
function bottomLegend(labels: Iterable<string>, title: string | null): Record<string, unknown> {
  const widest = Math.max(60, ...[...labels].map(labelPx)) + 26;
  return {
    orient: 'bottom',
    direction: 'vertical',
    columns: Math.max(1, Math.min(4, Math.floor(900 / widest))),
    title,
  };
}

const datasetsOf = (rows: readonly { dataset: string }[]): number => new Set(rows.map((r) => r.dataset)).size;

/**
 * The height of one row of a forest plot: 16 px, more when a panel has few rows, so a panel is at least ~240 px tall
 * and a chart of three comparisons is not a strip.
 */
function rowStep<T>(values: readonly T[], panelOf: (v: T) => string, rowOf: (v: T) => string): number {
  const rows = new Map<string, Set<string>>();
  for (const v of values) rows.set(panelOf(v), (rows.get(panelOf(v)) ?? new Set()).add(rowOf(v)));
  const most = Math.max(1, ...[...rows.values()].map((r) => r.size));
  return Math.max(16, Math.min(48, Math.ceil(240 / most)));
}

/** A score row as the per-type chart's data: marked method, metric combination, whether it is the headline. */
function scoreValue(headlines: ReportData['headlines'], r: TypeScore) {
  return {
    dataset: r.dataset,
    method: markedLabel(r.series, r.upperBound),
    upperBound: r.upperBound,
    combo: comboOf(r),
    comboLabel: comboLabel(r),
    headline: isHeadlineRow(headlines, r),
    type: r.type,
    n: r.n,
    mean: r.mean,
    ciLow: r.ciLow,
    ciHigh: r.ciHigh,
  };
}

function scoreTooltip(hasCi: boolean) {
  return [
    { field: 'dataset' },
    { field: 'method' },
    { field: 'type' },
    { field: 'mean', format: '.1%' },
    { field: 'n', title: 'n questions' },
    ...(hasCi
      ? [
          { field: 'ciLow', title: 'CI low', format: '.1%' },
          { field: 'ciHigh', title: 'CI high', format: '.1%' },
        ]
      : []),
  ];
}

export function typeScoresSpec(
  data: Pick<ReportData, 'scores' | 'headlines' | 'colors'>,
  pick: string,
  rows: readonly TypeScore[] = data.scores,
): TopLevelSpec {
  const values = rows.map((r) => scoreValue(data.headlines, r));
  const methods = [...new Set(values.map((v) => v.method))];
  const types = TYPE_COLUMNS.filter((t) => rows.some((r) => r.type === t));
  const hasCi = rows.some((r) => r.ciLow !== null);
  const x = {
    field: 'type',
    type: 'nominal',
    sort: [...TYPE_COLUMNS],
    title: 'AdaptMR type',
    axis: { labelAngle: 0 },
  } as const;
  const bars = {
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x,
      xOffset: { field: 'method', type: 'nominal' },
      y: {
        field: 'mean',
        type: 'quantitative',
        title: hasCi ? 'mean (95% CI)' : 'mean',
        scale: { domain: [0, 1] },
        axis: { format: '.0%' },
      },
      color: {
        field: 'method',
        type: 'nominal',
        scale: seriesScale(data, methods),
        legend: bottomLegend(methods, 'method'),
      },
      ...upperBoundEncoding(),
      tooltip: scoreTooltip(hasCi),
    },
  };
  const whiskers = {
    mark: { type: 'rule', color: '#222' },
    transform: [{ filter: 'isValid(datum.ciLow)' }],
    encoding: {
      x,
      xOffset: { field: 'method', type: 'nominal' },
      y: { field: 'ciLow', type: 'quantitative' },
      y2: { field: 'ciHigh' },
    },
  };
  // A bar per method and type needs ≥ 7 px to be told apart; two datasets side by side only when both fit.
  const minWidth = Math.max(360, types.length * methods.length * 7);
  return {
    $schema: SCHEMA,
    usermeta: fitMeta(minWidth, 70, datasetsOf(rows)),
    params: pickParam(pick),
    data: { values },
    transform: [{ filter: PICKED }, { calculate: PANEL, as: 'panel' }],
    facet: panelFacet,
    columns: minWidth > 520 ? 1 : 2,
    spec: { width: Math.min(900, Math.max(minWidth, 420)), height: 240, layer: hasCi ? [bars, whiskers] : [bars] },
    config: CHART_CONFIG,
  } as TopLevelSpec;
}

/** How a comparison row is named: `A − B`, or for two runs of one method (a sweep) its variations in words. */
export function comparisonPair(r: Comparison, data: Pick<ReportData, 'runLabels' | 'methodMarks'>): string {
  const mark = (id: string): string => (data.methodMarks[id] ? `${id} (${data.methodMarks[id]})` : id);
  const a = String(r.method_a);
  const b = String(r.method_b);
  const runA = String(r.run ?? '');
  const runB = String(r.run_b ?? runA);
  if (a === b && runA !== runB)
    return `${data.runLabels[runA] ?? variationLabel(variationOfRun(runA))} − ${data.runLabels[runB] ?? variationLabel(variationOfRun(runB))}`;
  return `${mark(a)} − ${mark(b)}`;
}

/** Forest plot of paired differences (A − B, in points), one row per pair, for the picked metric and type. */
export function comparisonsSpec(
  data: Pick<ReportData, 'comparisons' | 'headlines' | 'runLabels' | 'methodMarks'>,
  pick: string,
  type = 'all',
): TopLevelSpec {
  const values = data.comparisons.map((r) => ({
    dataset: String(r.dataset),
    pair: comparisonPair(r, data),
    type: String(r.adapt_type),
    combo: comboOf(r as { metric: string; level: string; k: number | null }),
    comboLabel: comboLabel(r as { metric: string; level: string; k: number | null }),
    headline: isHeadlineRow(data.headlines, r as { dataset: string; metric: string; level: string; k: number | null }),
    diff: Number(r.mean_diff) * 100,
    ciLow: Number(r.ci_low) * 100,
    ciHigh: Number(r.ci_high) * 100,
    pHolm: pValueText(r.p_holm as number | null),
    n: r.n_pairs,
    significant: typeof r.p_holm === 'number' && r.p_holm < 0.05 ? 'p_holm < 0.05' : 'not significant',
  }));
  const pairs = [...new Set(values.map((v) => v.pair))];
  const x = { type: 'quantitative', title: 'A − B (points, 95% CI)' } as const;
  const color = {
    field: 'significant',
    type: 'nominal',
    title: 'Holm-corrected',
    scale: { domain: ['p_holm < 0.05', 'not significant'], range: ['#BE0032', '#848482'] },
    legend: { orient: 'bottom', direction: 'horizontal' },
  } as const;
  return {
    $schema: SCHEMA,
    usermeta: fitMeta(300, reserveFor(pairs, false), datasetsOf(values)),
    params: [...pickParam(pick), { name: 'typeSel', value: type }],
    data: { values },
    transform: [{ filter: PICKED }, { filter: 'datum.type === typeSel' }, { calculate: PANEL, as: 'panel' }],
    facet: panelFacet,
    columns: 2,
    spec: {
      width: 320,
      height: {
        step: rowStep(
          values,
          (v) => v.dataset,
          (v) => v.pair,
        ),
      },
      encoding: { y: { field: 'pair', type: 'nominal', title: null } },
      layer: [
        {
          mark: { type: 'rule', color: '#999', strokeDash: [3, 3] },
          encoding: { x: { datum: 0, type: 'quantitative' }, y: null },
        },
        { mark: 'rule', encoding: { x: { field: 'ciLow', ...x }, x2: { field: 'ciHigh' }, color } },
        {
          mark: { type: 'point', filled: true, size: 40 },
          encoding: {
            x: { field: 'diff', ...x },
            color: { field: 'significant', type: 'nominal' },
            tooltip: [
              { field: 'pair' },
              { field: 'type' },
              { field: 'diff', title: 'A − B (points)', format: '+.1f' },
              { field: 'ciLow', title: 'CI low', format: '+.1f' },
              { field: 'ciHigh', title: 'CI high', format: '+.1f' },
              { field: 'n', title: 'pairs' },
              { field: 'pHolm', title: 'p_holm' },
            ],
          },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
    config: CHART_CONFIG,
  } as TopLevelSpec;
}

/** Operating points: p50 retrieval latency (log) against the overall mean of the picked metric. */
export function latencyVsScoreSpec(
  data: Pick<ReportData, 'efficiency' | 'scores' | 'headlines' | 'colors'>,
  pick: string,
): TopLevelSpec {
  const latency = new Map(
    data.efficiency.filter((e) => e.stage === 'retrieval').map((e) => [`${e.dataset}\t${e.series}`, e.p50Ms]),
  );
  const values = data.scores
    .filter((s) => s.type === 'all' && latency.has(`${s.dataset}\t${s.series}`))
    .map((s) => ({
      dataset: s.dataset,
      method: markedLabel(s.series, s.upperBound),
      upperBound: s.upperBound,
      combo: comboOf(s),
      comboLabel: comboLabel(s),
      headline: isHeadlineRow(data.headlines, s),
      mean: s.mean,
      p50Ms: Math.max(latency.get(`${s.dataset}\t${s.series}`) ?? 0, 0.01),
    }));
  const methods = [...new Set(values.map((v) => v.method))];
  return {
    $schema: SCHEMA,
    usermeta: fitMeta(300, 70, datasetsOf(values)),
    params: pickParam(pick),
    data: { values },
    transform: [{ filter: PICKED }, { calculate: PANEL, as: 'panel' }],
    facet: panelFacet,
    columns: 2,
    spec: {
      width: 360,
      height: 240,
      mark: { type: 'point', filled: true, size: 90, tooltip: true },
      encoding: {
        x: { field: 'p50Ms', type: 'quantitative', scale: { type: 'log' }, title: 'retrieval latency p50 (ms, log)' },
        y: { field: 'mean', type: 'quantitative', title: 'overall mean', axis: { format: '.0%' } },
        color: {
          field: 'method',
          type: 'nominal',
          scale: seriesScale(data, methods),
          legend: bottomLegend(methods, 'method'),
        },
        shape: {
          field: 'upperBound',
          type: 'nominal',
          title: 'gold-type routing',
          scale: { domain: [false, true], range: ['circle', 'diamond'] },
          legend: { orient: 'bottom' },
        },
        ...upperBoundEncoding(),
      },
    },
    resolve: { scale: { x: 'independent' } },
    config: CHART_CONFIG,
  } as TopLevelSpec;
}

/** Whether a file has LLM tokens to chart (a retrieval-only file would draw an empty chart with one tick at 0). */
export const hasTokens = (eff: readonly Efficiency[]): boolean =>
  eff.some((e) => e.stage !== 'retrieval' && e.promptTokens + e.completionTokens > 0);

/** LLM tokens per question, stacked by stage (only for files with LLM tokens). */
export function tokensByStageSpec(eff: readonly Efficiency[]): TopLevelSpec {
  const values = eff
    .filter((e) => e.stage !== 'retrieval')
    .map((e) => ({
      dataset: e.dataset,
      method: markedLabel(e.series, e.upperBound),
      stage: e.stage,
      tokens: e.promptTokens + e.completionTokens,
    }));
  const methods = [...new Set(values.map((v) => v.method))];
  return {
    $schema: SCHEMA,
    usermeta: fitMeta(260, reserveFor(methods, false), datasetsOf(values)),
    data: { values },
    facet: { field: 'dataset', type: 'nominal', title: null },
    columns: 2,
    spec: {
      width: 320,
      height: {
        step: rowStep(
          values,
          (v) => v.dataset,
          (v) => v.method,
        ),
      },
      mark: { type: 'bar', tooltip: true },
      encoding: {
        y: { field: 'method', type: 'nominal', title: null },
        x: { field: 'tokens', type: 'quantitative', title: 'LLM tokens per question', stack: 'zero' },
        color: {
          field: 'stage',
          type: 'nominal',
          title: 'stage',
          scale: { scheme: 'dark2' },
          legend: { orient: 'bottom', direction: 'horizontal' },
        },
      },
    },
    resolve: { scale: { y: 'independent' } },
    config: CHART_CONFIG,
  } as TopLevelSpec;
}

/** Share of questions each method routed to each strategy. */
export function routesSpec(rows: readonly RouteShare[]): TopLevelSpec {
  const methods = [...new Set(rows.map((r) => r.series))];
  return {
    $schema: SCHEMA,
    usermeta: fitMeta(300, reserveFor(methods, false), datasetsOf(rows)),
    data: { values: rows.map((r) => ({ dataset: r.dataset, method: r.series, route: r.route, n: r.n })) },
    facet: { field: 'dataset', type: 'nominal', title: null },
    columns: 2,
    spec: {
      width: 360,
      height: {
        step: rowStep(
          rows,
          (r) => r.dataset,
          (r) => r.series,
        ),
      },
      mark: { type: 'bar', tooltip: true },
      encoding: {
        y: { field: 'method', type: 'nominal', title: null },
        x: {
          field: 'n',
          type: 'quantitative',
          stack: 'normalize',
          title: 'share of questions',
          axis: { format: '.0%' },
        },
        color: {
          field: 'route',
          type: 'nominal',
          title: 'route',
          scale: { scheme: 'tableau20' },
          legend: { orient: 'bottom', columns: 3 },
        },
      },
    },
    resolve: { scale: { y: 'independent' } },
    config: CHART_CONFIG,
  } as TopLevelSpec;
}

export const VERDICT_COLORS: Readonly<Record<string, string>> = Object.freeze({
  reached: '#008856',
  'not established': '#E69F00',
  'not met': '#BE0032',
  'n/a': '#848482',
});

/**
 * The verdicts at a glance: one row per claim (labelled by what it compares — "w/o temporal strategy",
 * "adaptmr-fusion-rules − unified-embedding"), the estimate with its 95% CI in points, coloured by verdict, one panel
 * per dataset and headline. Rows of every type when `type` is null, else of that type only (`all` = overall). The
 * overhead claim (a time ratio, not points) gets panels of its own with the plan's 1.3 line.
 */
/**
 * A verdict as a forest-plot row: its estimate and CI in points (the overhead claim: a time ratio, with the plan's
 * 1.3 as its reference line), its panel by dataset and metric.
 */
function forestValue(v: VerdictRow, marks: Readonly<Record<string, string>>) {
  const ratio = v.claim === 'overhead';
  const scale = ratio ? 1 : 100;
  return {
    dataset: v.dataset,
    panel: `${v.dataset}\n${ratio ? 'time ratio A ÷ B (plan: < 1.3)' : `${v.metric}${v.k === null ? '' : `@${v.k}`} (${v.level} level), points`}`,
    claim: claimLabel(v, marks),
    type: v.adaptType,
    estimate: v.estimate! * scale,
    lo: (v.ciLow ?? v.estimate!) * scale,
    hi: (v.ciHigh ?? v.estimate!) * scale,
    ref: ratio ? 1.3 : 0,
    verdict: v.verdict,
    n: v.n,
    pHolm: pValueText(v.pHolm),
    mde: v.mde === null ? 'n/a' : (v.mde * 100).toFixed(1),
    reason: v.reason,
  };
}

const FOREST_TOOLTIP = [
  { field: 'claim' },
  { field: 'type' },
  { field: 'estimate', format: '+.2f' },
  { field: 'lo', title: 'CI low', format: '+.2f' },
  { field: 'hi', title: 'CI high', format: '+.2f' },
  { field: 'n' },
  { field: 'pHolm', title: 'p_holm' },
  { field: 'mde', title: 'MDE (points)' },
  { field: 'verdict' },
];

export function verdictForestSpec(
  rows: readonly VerdictRow[],
  marks: Readonly<Record<string, string>>,
  title: string,
): TopLevelSpec {
  const values = rows.filter((v) => v.estimate !== null).map((v) => forestValue(v, marks));
  const types = TYPE_COLUMNS.filter((t) => values.some((v) => v.type === t));
  // Rows of several types: each row says its type ("oracle − unified-embedding · temporal"), overall first.
  const perType = types.length > 1;
  const typeRank = (t: string): number => (t === 'all' ? -1 : TYPE_COLUMNS.indexOf(t));
  const claimOrder = [...new Set(values.map((v) => v.claim))];
  const rowsOf = values
    .map((v) => ({ ...v, row: perType ? `${v.claim} · ${v.type}` : v.claim }))
    .sort((a, b) => claimOrder.indexOf(a.claim) - claimOrder.indexOf(b.claim) || typeRank(a.type) - typeRank(b.type));
  const order = [...new Set(rowsOf.map((v) => v.row))];
  const x = { type: 'quantitative', title: 'estimate [95% CI]', scale: { zero: false } } as const;
  const verdicts = Object.keys(VERDICT_COLORS).filter((k) => values.some((v) => v.verdict === k));
  const color = {
    field: 'verdict',
    type: 'nominal',
    title: 'verdict',
    scale: { domain: verdicts, range: verdicts.map((k) => VERDICT_COLORS[k]!) },
    legend: { orient: 'bottom', direction: 'horizontal' },
  } as const;
  const panels = new Set(values.map((v) => v.panel)).size;
  return {
    $schema: SCHEMA,
    title: wrapTitle(title),
    usermeta: fitMeta(300, reserveFor(order, false), panels),
    data: { values: rowsOf },
    facet: panelFacet,
    columns: Math.min(2, panels),
    spec: {
      width: 320,
      height: {
        step: rowStep(
          rowsOf,
          (v) => v.panel,
          (v) => v.row,
        ),
      },
      encoding: { y: { field: 'row', type: 'nominal', title: null, sort: order } },
      layer: [
        {
          mark: { type: 'rule', color: '#888', strokeDash: [3, 3] },
          encoding: { x: { field: 'ref', type: 'quantitative' }, y: null },
        },
        { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'lo', ...x }, x2: { field: 'hi' }, color } },
        {
          mark: { type: 'point', filled: true, size: 50 },
          encoding: {
            x: { field: 'estimate', ...x },
            color: { field: 'verdict', type: 'nominal' },
            tooltip: FOREST_TOOLTIP,
          },
        },
      ],
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
    config: CHART_CONFIG,
  } as TopLevelSpec;
}
