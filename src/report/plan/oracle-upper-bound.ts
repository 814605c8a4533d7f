/**
 * Plan experiment 2 section: the oracle-strategy upper bound (gold type; chosen on one half, reported on the other)
 * against the reference (unified embedding) per type, with CIs and the paired gap; the plan's prediction
 * (gap ≥ plan.gapTarget points, default 10) is stated as met (CI above the target and the paired test significant),
 * not established (point estimate or CI above, but not both conditions) or not met. Chart: oracle vs reference bars with whiskers, and the gap per type with its CI and the target.
 */
import { join } from 'node:path';
import Table from 'cli-table3';
import type { TopLevelSpec } from 'vega-lite';
import { TYPE_COLUMNS } from '../per-type-table.ts';
import type { ResultStore } from '../../store/index.ts';
import { loadScoreInputs } from '../../store/index.ts';
import { renderChart } from '../render-chart.ts';
import { oracleGap, type OracleGapRow } from './oracle-gap.ts';
import { headlineTitle, isHeadline, pct, points, runHeadlineTitle, type PlanRun } from './plan-runs.ts';
import type { PlanSection } from './section.ts';

const ci = (i: { estimate: number; low: number; high: number }): string => `${pct(i.estimate)} [${pct(i.low)}, ${pct(i.high)}]`;

/**
 * Reached only when the CI lies at or above the target and the paired test rejects "no gap" (as the ablation
 * verdicts, both: with LoCoMo's ~10 conversations a BCa interval alone can look tighter than the exact test).
 */
export function gapVerdict(gap: { meanDiff: number; ciLow: number; pValue: number }, target: number): string {
  if (gap.ciLow * 100 >= target && gap.pValue < 0.05) return `reached: the whole 95% CI is at or above ${target} points and p < 0.05`;
  if (gap.ciLow * 100 >= target) return `not established: the 95% CI is at or above ${target} points but the paired test gives p ${gap.pValue.toFixed(3)} ≥ 0.05`;
  if (gap.meanDiff * 100 >= target) return `not established: the point estimate reaches ${target} points but the CI reaches below`;
  return `not reached: the gap is ${points(gap.meanDiff)} points (plan: ≥ ${target})`;
}

/** One row of panels per dataset (bars; gap with the target line), each dataset at its own headline. */
function chartSpec(rows: readonly OracleGapRow[], reference: string, target: number, title: string, subtitle: (dataset: string) => string): TopLevelSpec {
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    config: { background: 'white' },
    vconcat: datasets.map((d) => ({ title: subtitle(d), ...datasetPanels(rows.filter((r) => r.dataset === d), reference, target) })),
  };
}

type Panels = Extract<TopLevelSpec, { hconcat: unknown }>['hconcat'];

function datasetPanels(rows: readonly OracleGapRow[], reference: string, target: number): { hconcat: Panels } {
  const bars = rows.flatMap((r) => [
    { dataset: r.dataset, type: r.adaptType, series: 'oracle (gold type, upper bound)', mean: r.oracle.estimate, lo: r.oracle.low, hi: r.oracle.high },
    { dataset: r.dataset, type: r.adaptType, series: reference, mean: r.reference.estimate, lo: r.reference.low, hi: r.reference.high },
  ]);
  const gaps = rows.map((r) => ({ dataset: r.dataset, type: r.adaptType, gap: r.gap.meanDiff * 100, lo: r.gap.ciLow * 100, hi: r.gap.ciHigh * 100, target }));
  const x = { field: 'type', type: 'nominal' as const, sort: [...TYPE_COLUMNS], title: 'AdaptMR type', axis: { labelAngle: -30 } };
  return {
    hconcat: [
      {
        data: { values: bars }, width: { step: 18 }, height: 220,
        encoding: { x, xOffset: { field: 'series', type: 'nominal' } },
        layer: [
          { mark: { type: 'bar', tooltip: true }, encoding: { y: { field: 'mean', type: 'quantitative', title: 'mean (report half)', axis: { format: '%' }, scale: { domain: [0, 1] } }, color: { field: 'series', type: 'nominal', title: null } } },
          { mark: { type: 'rule', color: 'black' }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
        ],
      },
      {
        data: { values: gaps }, width: { step: 30 }, height: 220,
        // x only on the gap layers: the target and zero lines span the whole width.
        layer: [
          { mark: { type: 'point', filled: true, size: 60, tooltip: true }, encoding: { x, y: { field: 'gap', type: 'quantitative', title: `gap oracle − ${reference} (points, 95% CI)` } } },
          { mark: { type: 'rule' }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
          { mark: { type: 'rule', strokeDash: [4, 4], color: 'firebrick' }, encoding: { y: { datum: target } } },
          { mark: { type: 'rule', color: 'gray' }, encoding: { y: { datum: 0 } } },
        ],
      },
    ],
  };
}

export async function oracleSection(store: ResultStore, run: PlanRun, chartsDir: string, resamples: number): Promise<PlanSection> {
  const strategies = run.methods.filter((m) => m.method === 'strategy').map((m) => m.id);
  const reference = run.reference;
  const title = `Experiment 2 — oracle strategy upper bound vs ${reference}: ${runHeadlineTitle(run)}, run ${run.name}`;
  if (!reference || strategies.length < 2) return { experiment: 'oracle-upper-bound', text: `${title}\nneeds a reference method and at least two strategies`, charts: [] };
  const scores = (await loadScoreInputs(store))
    .filter((s) => s.runId === run.runId && isHeadline(run.headlineOf, s))
    .map((s) => ({ dataset: s.dataset, questionId: s.questionId, adaptType: s.adaptType, method: s.method, value: s.value }));
  const split = run.plan.split ?? 0.5;
  const target = run.plan.gapTarget ?? 10;
  const rows = oracleGap({ scores, strategies, reference, split, seed: run.seed, resamples });
  const table = new Table({ head: ['dataset', 'type', 'strategy chosen', 'n', 'oracle [95% CI]', `${reference} [95% CI]`, 'gap [95% CI] p'], style: { head: [], border: [], compact: true } });
  for (const r of rows) {
    table.push([r.dataset, r.adaptType, r.adaptType === 'all' ? '(per type)' : r.chosen, r.n, ci(r.oracle), ci(r.reference),
      `${points(r.gap.meanDiff)} [${points(r.gap.ciLow)}, ${points(r.gap.ciHigh)}] p ${r.gap.pValue < 0.001 ? '<0.001' : r.gap.pValue.toFixed(3)}`]);
  }
  const text = [
    `${title}\nchosen on a ${split} selection split (seed ${run.seed}), reported on the other questions; gap in points, paired bootstrap CI; ` +
      [...new Set(rows.map((r) => `${r.dataset}: ${r.gap.test}, ${r.bootstrap}s resampled`))].join('; '),
    table.toString(),
    ...rows.filter((r) => r.adaptType === 'all').map((r) => `${r.dataset} (${headlineTitle(run.headlineOf(r.dataset))}): plan prediction "oracle − unified ≥ ${target}–15 points" — ${gapVerdict(r.gap, target)}`),
  ];
  const chartTitle = `Experiment 2: oracle (gold type) vs ${reference}; dashed = plan's ${target}-point gap`;
  const spec = chartSpec(rows, reference, target, chartTitle, (d) => `${d}: ${headlineTitle(run.headlineOf(d))}`);
  const charts = rows.length > 0 ? [await renderChart(spec, join(chartsDir, 'exp2-oracle-upper-bound'))] : [];
  return { experiment: 'oracle-upper-bound', text: text.join('\n'), charts };
}
