/**
 * Plan experiment 2 section: per dataset and type, the strategy the selection half chose (with the tie rule's
 * outcome), and on the report half the oracle, the reference (unified), the best single fixed strategy and the
 * per-question ceiling (the upper bound of any routing over these strategies), each with its CI, and the gap to the reference — the same arithmetic
 * as the verdicts (src/eval/verdicts/oracle.ts) — then the stored verdicts (oracle-vs-unified, oracle-vs-best-single,
 * premise-single-strategy). Chart: the four means per type with whiskers, and the gap per type with the plan's target.
 */
import { join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { ClaimContext, oracleAnalyses, type OracleAnalysis } from '../../eval/verdicts/index.ts';
import { loadVerdictInput, type ResultStore } from '../../store/index.ts';
import { TYPE_COLUMNS } from '../../report/per-type-table.ts';
import { renderChart } from '../../report/render-chart.ts';
import { CHART_CONFIG, methodColor, upperBoundEncoding } from '../../report/palette.ts';
import { wrapTitle } from '../../report/chart-fit.ts';
import { oracleTable } from '../../report/plan/oracle-table.ts';
import { headlineTitle, runHeadlineTitle, type PlanRun } from '../../report/plan/plan-runs.ts';
import { tableData, type PlanSection } from '../../report/plan/section.ts';
import { sectionVerdicts } from '../../report/plan/section-verdicts.ts';

/** One row of panels per dataset (bars; gap with the target line), each dataset at its own headline. */
function chartSpec(
  analyses: readonly OracleAnalysis[],
  reference: string,
  target: number,
  title: string,
  subtitle: (dataset: string) => string,
): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: wrapTitle(title),
    config: CHART_CONFIG,
    vconcat: analyses.map((a) => ({
      title: subtitle(a.dataset),
      ...datasetPanels(a, reference, target, colorsOf(analyses, reference)),
    })),
  };
}

/**
 * One colour scale for every dataset's panels (vega-lite shares it across the rows): the reference and each best
 * single strategy keep their method colours, the oracle and the ceiling theirs, outlined.
 */
function colorsOf(analyses: readonly OracleAnalysis[], reference: string): { domain: string[]; range: string[] } {
  const best = [...new Set(analyses.map((a) => a.bestSingle.id))];
  return {
    domain: [ORACLE, CEILING, ...best.map((id) => `best single (${id})`), reference],
    range: [methodColor('adaptmr-oracle'), CEILING_COLOR, ...best.map((id) => methodColor(id)), methodColor(reference)],
  };
}

type Panels = Extract<TopLevelSpec, { hconcat: unknown }>['hconcat'];

const ORACLE = 'oracle strategy (held-out)';
const CEILING = 'per-question ceiling (upper bound)';
/** Kelly's buff: no committed experiment 2 method has it. */
const CEILING_COLOR = '#C2B280';

/** The four means per type with their CIs (bars), and the gap to the reference per type with the target line. */
function datasetPanels(
  a: OracleAnalysis,
  reference: string,
  target: number,
  colors: { domain: string[]; range: string[] },
): { hconcat: Panels } {
  const x = {
    field: 'type',
    type: 'nominal' as const,
    sort: [...TYPE_COLUMNS],
    title: 'AdaptMR type',
    axis: { labelAngle: -30 },
  };
  return { hconcat: [meansPanel(a, reference, colors, x), gapPanel(a, reference, target, x)] };
}

type TypeAxis = { field: string; type: 'nominal'; sort: string[]; title: string; axis: { labelAngle: number } };

function meansPanel(
  a: OracleAnalysis,
  reference: string,
  colors: { domain: string[]; range: string[] },
  x: TypeAxis,
): Panels[number] {
  const best = `best single (${a.bestSingle.id})`;
  const bar = (
    type: string,
    series: string,
    i: { estimate: number; low: number; high: number },
    upperBound: boolean,
  ) => ({
    type,
    series,
    mean: i.estimate,
    lo: i.low,
    hi: i.high,
    upperBound,
  });
  const bars = a.rows.flatMap((r) => [
    bar(r.adaptType, ORACLE, r.oracle, true),
    bar(r.adaptType, best, r.bestSingle, false),
    bar(r.adaptType, CEILING, r.ceiling, true),
    bar(r.adaptType, reference, r.reference, false),
  ]);
  return {
    data: { values: bars },
    width: { step: 18 },
    height: 260,
    encoding: { x, xOffset: { field: 'series', type: 'nominal' } },
    layer: [
      {
        mark: { type: 'bar', tooltip: true },
        encoding: {
          y: {
            field: 'mean',
            type: 'quantitative',
            title: 'mean (report half)',
            axis: { format: '.0%' },
            scale: { domain: [0, 1] },
          },
          color: {
            field: 'series',
            type: 'nominal',
            title: null,
            scale: colors,
            legend: { orient: 'bottom', columns: 2 },
          },
          ...upperBoundEncoding(),
        },
      },
      {
        mark: { type: 'rule', color: 'black' },
        encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } },
      },
    ],
  };
}

function gapPanel(a: OracleAnalysis, reference: string, target: number, x: TypeAxis): Panels[number] {
  const gaps = a.rows.map((r) => ({
    type: r.adaptType,
    gap: r.vsReference.result.meanDiff * 100,
    lo: r.vsReference.result.ciLow * 100,
    hi: r.vsReference.result.ciHigh * 100,
    target,
  }));
  return {
    data: { values: gaps },
    width: { step: 44 },
    height: 260,
    // x only on the gap layers: the target and zero lines span the whole width.
    layer: [
      {
        mark: { type: 'point', filled: true, size: 60, tooltip: true },
        encoding: {
          x,
          y: { field: 'gap', type: 'quantitative', title: [`gap oracle − ${reference}`, '(points, 95% CI)'] },
        },
      },
      { mark: { type: 'rule' }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
      { mark: { type: 'rule', strokeDash: [4, 4], color: 'firebrick' }, encoding: { y: { datum: target } } },
      { mark: { type: 'rule', color: 'gray' }, encoding: { y: { datum: 0 } } },
    ],
  };
}

export async function oracleSection(store: ResultStore, run: PlanRun, chartsDir: string): Promise<PlanSection> {
  const reference = run.reference;
  const title = `Experiment 2 — oracle strategy vs ${reference}, the best single strategy and the per-question ceiling: ${runHeadlineTitle(run)}, run ${run.name}`;
  const analyses = oracleAnalyses(new ClaimContext(await loadVerdictInput(store)), run.input);
  if (!reference || analyses.length === 0) {
    return {
      experiment: 'oracle-upper-bound',
      text: `${title}\nneeds a reference method and at least two strategies\n${await sectionVerdicts(store, run.experiment)}`,
      charts: [],
    };
  }
  const split = run.plan.split ?? 0.5;
  const target = run.plan.gapTarget ?? 10;
  const table = oracleTable(analyses, reference);
  const text = [
    `${title}\nchosen on a ${split} selection split (seed ${run.seed}; tie rule: the type's own strategy when tied, else the first by id), reported on the other questions; ` +
      `best single = the one strategy best on the whole selection half (${analyses.map((a) => `${a.dataset}: ${a.bestSingle.id}${a.bestSingle.tied.length > 1 ? `, tied with ${a.bestSingle.tied.length - 1}` : ''}`).join('; ')}); ` +
      'ceiling = every question served by whichever strategy scores best on it (the ceiling: the upper bound of any routing over these strategies); ' +
      [
        ...new Set(
          analyses.map(
            (a) =>
              `${a.dataset}: ${a.rows[0]?.vsReference.result.test}, ${a.rows[0]?.vsReference.bootstrap}s resampled`,
          ),
        ),
      ].join('; '),
    table.toString(),
    await sectionVerdicts(store, run.experiment),
  ];
  const chartTitle = `Experiment 2: oracle (gold type), best single strategy, per-question ceiling and ${reference}; dashed = plan's ${target}-point gap`;
  const spec = chartSpec(analyses, reference, target, chartTitle, (d) => `${d}: ${headlineTitle(run.headlineOf(d))}`);
  return {
    experiment: 'oracle-upper-bound',
    text: text.join('\n'),
    charts: [await renderChart(spec, join(chartsDir, 'exp2-oracle-upper-bound'))],
    title,
    notes: [text[0]!.slice(title.length + 1)],
    tables: [
      tableData(
        'Strategy chosen per type (selection half) and, on the report half, the oracle, the reference, the best single strategy and the per-question ceiling',
        table,
      ),
    ],
  };
}
