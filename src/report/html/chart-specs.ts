/**
 * Vega-Lite specs of the HTML report's interactive charts (pure functions of the loaded rows). The charts that
 * depend on the page's metric / level / k pickers declare them as params (`metric`, `level`, `kSel`) and filter on
 * them, so the page updates a chart with `view.signal(…)` without re-embedding it. Methods are coloured by the
 * shared palette and upper-bound methods outlined (palette.ts); whiskers are the file's 95% CIs when it has them.
 */
import type { TopLevelSpec } from 'vega-lite';
import { TYPE_COLUMNS } from '../per-type-table.ts';
import { colorScale, markedLabel, upperBoundEncoding } from '../palette.ts';
import type { Comparison, Efficiency, RouteShare, TypeScore } from './load-data.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** The pickers' initial values. */
export interface Selection { metric: string; level: string; k: string }

/** k as the pickers hold it: QA metrics have no k. */
export const kKey = (k: number | null | undefined): string => (k === null || k === undefined ? '-' : String(k));

const PICKED = 'datum.metric === metric && datum.level === level && datum.k === kSel';

function pickerParams(sel: Selection): { name: string; value: string }[] {
  return [{ name: 'metric', value: sel.metric }, { name: 'level', value: sel.level }, { name: 'kSel', value: sel.k }];
}

/** Every series label the file shows, marked — the colour domain shared by all charts of the page. */
export function seriesDomain(rows: readonly { series: string; upperBound: boolean }[]): { domain: string[]; range: string[] } {
  return colorScale(rows.map((r) => markedLabel(r.series, r.upperBound)));
}

export function typeScoresSpec(rows: readonly TypeScore[], sel: Selection, colors: { domain: string[]; range: string[] }): TopLevelSpec {
  const values = rows.map((r) => ({
    dataset: r.dataset, method: markedLabel(r.series, r.upperBound), upperBound: r.upperBound, metric: r.metric, level: r.level,
    k: kKey(r.k), type: r.type, n: r.n, mean: r.mean, ciLow: r.ciLow, ciHigh: r.ciHigh,
  }));
  const hasCi = rows.some((r) => r.ciLow !== null);
  const x = { field: 'type', type: 'nominal', sort: [...TYPE_COLUMNS], title: 'AdaptMR type', axis: { labelAngle: -30 } } as const;
  const bars = {
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x, xOffset: { field: 'method', type: 'nominal' },
      y: { field: 'mean', type: 'quantitative', title: 'mean (95% CI)', scale: { domain: [0, 1] }, axis: { format: '%' } },
      color: { field: 'method', type: 'nominal', title: 'method', scale: colors },
      ...upperBoundEncoding(),
      tooltip: [{ field: 'method' }, { field: 'type' }, { field: 'mean', format: '.1%' }, { field: 'n', title: 'n questions' },
        ...(hasCi ? [{ field: 'ciLow', title: 'CI low', format: '.1%' }, { field: 'ciHigh', title: 'CI high', format: '.1%' }] : [])],
    },
  };
  const whiskers = {
    mark: { type: 'rule', color: '#222' },
    transform: [{ filter: 'isValid(datum.ciLow)' }],
    encoding: { x, xOffset: { field: 'method', type: 'nominal' }, y: { field: 'ciLow', type: 'quantitative' }, y2: { field: 'ciHigh' } },
  };
  return {
    $schema: SCHEMA,
    params: pickerParams(sel),
    data: { values },
    transform: [{ filter: PICKED }],
    facet: { column: { field: 'dataset', type: 'nominal', title: null } },
    spec: { width: { step: 12 }, height: 240, layer: hasCi ? [bars, whiskers] : [bars] },
    resolve: { scale: { x: 'independent' } },
    config: { background: 'white' },
  } as TopLevelSpec;
}

/** Dot-and-whisker of paired differences (method_b − method_a, or as the table states), one row per pair. */
export function comparisonsSpec(rows: readonly Comparison[], sel: Selection): TopLevelSpec {
  const values = rows.map((r) => ({
    dataset: r.dataset, pair: `${String(r.method_b)} vs ${String(r.method_a)}`, type: r.adapt_type, metric: r.metric, level: r.level,
    k: kKey(r.k as number | null), diff: r.mean_diff, ciLow: r.ci_low, ciHigh: r.ci_high, pHolm: r.p_holm, n: r.n_pairs,
    significant: typeof r.p_holm === 'number' && r.p_holm < 0.05 ? 'p_holm < 0.05' : 'not significant',
  }));
  return {
    $schema: SCHEMA,
    params: pickerParams(sel),
    data: { values },
    transform: [{ filter: PICKED }],
    facet: { row: { field: 'dataset', type: 'nominal', title: null }, column: { field: 'type', type: 'nominal', title: null, sort: [...TYPE_COLUMNS] } },
    spec: {
      width: 150,
      layer: [
        { mark: { type: 'rule', color: '#999', strokeDash: [2, 2] }, encoding: { x: { datum: 0, type: 'quantitative' } } },
        { mark: 'rule', encoding: { y: { field: 'pair', type: 'nominal', title: null }, x: { field: 'ciLow', type: 'quantitative', title: 'mean difference (95% CI)' }, x2: { field: 'ciHigh' }, color: { field: 'significant', type: 'nominal', title: 'Holm-corrected', scale: { domain: ['p_holm < 0.05', 'not significant'], range: ['#BE0032', '#848482'] } } } },
        { mark: { type: 'point', filled: true, tooltip: true }, encoding: { y: { field: 'pair', type: 'nominal' }, x: { field: 'diff', type: 'quantitative' }, color: { field: 'significant', type: 'nominal' } } },
      ],
    },
    config: { background: 'white' },
  } as TopLevelSpec;
}

/** Operating points: p50 retrieval latency (log) against the overall mean of the picked metric. */
export function latencyVsScoreSpec(eff: readonly Efficiency[], scores: readonly TypeScore[], sel: Selection, colors: { domain: string[]; range: string[] }): TopLevelSpec {
  const latency = new Map(eff.filter((e) => e.stage === 'retrieval').map((e) => [`${e.dataset}\t${e.series}`, e.p50Ms]));
  const values = scores.filter((s) => s.type === 'all' && latency.has(`${s.dataset}\t${s.series}`)).map((s) => ({
    dataset: s.dataset, method: markedLabel(s.series, s.upperBound), upperBound: s.upperBound, metric: s.metric, level: s.level,
    k: kKey(s.k), mean: s.mean, p50Ms: Math.max(latency.get(`${s.dataset}\t${s.series}`) ?? 0, 0.01),
  }));
  return {
    $schema: SCHEMA,
    params: pickerParams(sel),
    data: { values },
    transform: [{ filter: PICKED }],
    facet: { column: { field: 'dataset', type: 'nominal', title: null } },
    spec: {
      width: 300, height: 240,
      mark: { type: 'point', filled: true, size: 90, tooltip: true },
      encoding: {
        x: { field: 'p50Ms', type: 'quantitative', scale: { type: 'log' }, title: 'retrieval latency p50 (ms, log)' },
        y: { field: 'mean', type: 'quantitative', title: 'overall mean', axis: { format: '%' } },
        color: { field: 'method', type: 'nominal', title: 'method', scale: colors },
        shape: { field: 'upperBound', type: 'nominal', title: 'upper bound', scale: { domain: [false, true], range: ['circle', 'diamond'] } },
        ...upperBoundEncoding(),
      },
    },
    config: { background: 'white' },
  } as TopLevelSpec;
}

/** LLM tokens per question, stacked by stage (only for files with LLM calls). */
export function tokensByStageSpec(eff: readonly Efficiency[]): TopLevelSpec {
  const values = eff.filter((e) => e.stage !== 'retrieval').map((e) => ({
    dataset: e.dataset, method: markedLabel(e.series, e.upperBound), stage: e.stage, tokens: e.promptTokens + e.completionTokens,
  }));
  return {
    $schema: SCHEMA,
    data: { values },
    facet: { column: { field: 'dataset', type: 'nominal', title: null } },
    spec: {
      width: { step: 22 }, height: 220,
      mark: { type: 'bar', tooltip: true },
      encoding: {
        x: { field: 'method', type: 'nominal', title: null, axis: { labelAngle: -40 } },
        y: { field: 'tokens', type: 'quantitative', title: 'LLM tokens per question', stack: 'zero' },
        color: { field: 'stage', type: 'nominal', title: 'stage', scale: { scheme: 'dark2' } },
      },
    },
    resolve: { scale: { x: 'independent' } },
    config: { background: 'white' },
  } as TopLevelSpec;
}

/** Share of questions each method routed to each strategy. */
export function routesSpec(rows: readonly RouteShare[]): TopLevelSpec {
  return {
    $schema: SCHEMA,
    data: { values: rows.map((r) => ({ dataset: r.dataset, method: r.series, route: r.route, n: r.n })) },
    facet: { row: { field: 'dataset', type: 'nominal', title: null } },
    spec: {
      width: 420,
      mark: { type: 'bar', tooltip: true },
      encoding: {
        y: { field: 'method', type: 'nominal', title: null },
        x: { field: 'n', type: 'quantitative', stack: 'normalize', title: 'share of questions', axis: { format: '%' } },
        color: { field: 'route', type: 'nominal', title: 'route', scale: { scheme: 'tableau20' } },
      },
    },
    resolve: { scale: { y: 'independent' } },
    config: { background: 'white' },
  } as TopLevelSpec;
}
