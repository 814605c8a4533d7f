/**
 * Plan experiment 5 section: latency (mean / p50 / p95) and time per stage per method, LLM calls and tokens per
 * question by stage, the added milliseconds per question vs the reference (median, p95), the overhead ratio with its
 * CI only when the reference takes ≥ 1 ms per question, the share of questions routed to each strategy, the stored
 * `overhead` verdicts (plan: < 1.3), and the warm-up (loading vectors and models, reading the question catalogue) reported once per
 * run — it is never part of a question's latency. Charts: latency vs the headline metric (operating points with CI
 * whiskers) and time (and, with an LLM, tokens) stacked by stage.
 */
import { join } from 'node:path';
import Table from 'cli-table3';
import type { RetrievalNotes } from '../../core/types.ts';
import type { TopLevelSpec } from 'vega-lite';
import type { ResultStore } from '../../store/index.ts';
import { renderChart, type ChartFiles } from '../../report/render-chart.ts';
import { CHART_CONFIG, colorScale } from '../../report/palette.ts';
import {
  efficiencyOf,
  type CallRow,
  type MethodEfficiency,
  type QuestionTiming,
} from '../../eval/verdicts/efficiency.ts';
import { OVERHEAD_BASE_MIN_MS } from '../../eval/verdicts/index.ts';
import { loadDegradedMarks, markedMethod } from '../../report/series-label.ts';
import { sectionVerdicts } from '../../report/plan/section-verdicts.ts';
import { headlineTitle, pct, runHeadlineTitle, typeMeansOfRuns, type PlanRun } from '../../report/plan/plan-runs.ts';
import { tableData, type PlanSection } from '../../report/plan/section.ts';

/** The stored notes' `stageMs` (RetrievalNotes), its numeric entries only: a file is data, not a promise. */
function stageMs(notes: string | null): Record<string, number> {
  if (!notes) return {};
  const parsed = JSON.parse(notes) as RetrievalNotes | null;
  const s: unknown = parsed?.stageMs;
  if (typeof s !== 'object' || s === null) return {};
  return Object.fromEntries(Object.entries(s).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '—');
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
const fmtMap = (m: Record<string, number>, f: (x: number) => string): string =>
  Object.entries(m)
    .sort()
    .map(([k, v]) => `${k} ${f(v)}`)
    .join(', ') || '—';

/** One dataset's efficiency and headline means (series label → mean with CI). */
interface DatasetEfficiency {
  dataset: string;
  eff: MethodEfficiency[];
  means: Map<string, { mean: number; lo?: number; hi?: number }>;
}

/** The charts' data: per dataset the operating points (latency × headline), time per stage and tokens per stage. */
function chartData(
  per: readonly DatasetEfficiency[],
  facetTitle: (dataset: string) => string,
  label: (method: string) => string,
) {
  const points = per.flatMap((d) =>
    d.eff
      .filter((e) => d.means.has(e.method))
      .map((e) => ({
        dataset: facetTitle(d.dataset),
        method: label(e.method),
        latency: e.meanMs,
        ...d.means.get(e.method)!,
      })),
  );
  const byStage = <K extends string>(of: (e: MethodEfficiency) => Record<string, number>, key: K) =>
    per.flatMap((d) =>
      d.eff.flatMap((e) =>
        Object.entries(of(e)).map(
          ([stage, v]) =>
            ({ dataset: d.dataset, method: label(e.method), stage, [key]: v }) as {
              dataset: string;
              method: string;
              stage: string;
            } & Record<K, number>,
        ),
      ),
    );
  return { points, stages: byStage((e) => e.stageMeanMs, 'ms'), tokens: byStage((e) => e.tokensPerQuestion, 'tokens') };
}

const SPEC_BASE = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', config: CHART_CONFIG };
const COLUMN = { field: 'dataset', type: 'nominal' as const, title: null };

/** The section's charts, one column per dataset (each facet title names the dataset's headline). */
function charts(
  per: readonly DatasetEfficiency[],
  title: string,
  facetTitle: (dataset: string) => string,
  label: (method: string) => string,
): TopLevelSpec[] {
  const { points, stages, tokens } = chartData(per, facetTitle, label);
  const specs: TopLevelSpec[] = [
    operatingPointsSpec(`${title}: operating points`, points),
    stageBarSpec(`${title}: time per stage`, stages, 'ms', 'mean ms per question'),
  ];
  // Only when some stage spent tokens: a retrieval-only run would draw an empty chart with one tick at 0.
  if (tokens.some((t) => t.tokens > 0))
    specs.push(stageBarSpec(`${title}: tokens per stage`, tokens, 'tokens', 'tokens per question'));
  return specs;
}

/** Each method's mean latency against its headline mean (95% CI), one panel per dataset. */
function operatingPointsSpec(title: string, points: { method: string }[]): TopLevelSpec {
  return {
    ...SPEC_BASE,
    title,
    data: { values: points },
    facet: { column: COLUMN },
    // Latency and the headline differ in scale between datasets.
    resolve: { scale: { x: 'independent', y: 'independent' } },
    spec: {
      width: 300,
      height: 240,
      encoding: {
        x: {
          field: 'latency',
          type: 'quantitative',
          title: 'mean latency per question (ms)',
          scale: { zero: false },
          axis: { tickCount: 5 },
        },
        color: {
          field: 'method',
          type: 'nominal',
          title: 'method',
          scale: colorScale(points.map((p) => p.method)),
          legend: { orient: 'bottom', columns: 3 },
        },
      },
      layer: [
        {
          mark: { type: 'rule' },
          encoding: {
            y: {
              field: 'lo',
              type: 'quantitative',
              title: 'mean (95% CI)',
              axis: { format: '.0%' },
              scale: { zero: false },
            },
            y2: { field: 'hi' },
          },
        },
        {
          mark: { type: 'point', filled: true, size: 70, tooltip: true },
          encoding: { y: { field: 'mean', type: 'quantitative' } },
        },
      ],
    },
  };
}

/** A stacked bar per method of `field` by stage, one column per dataset. */
function stageBarSpec(title: string, values: object[], field: string, yTitle: string): TopLevelSpec {
  return {
    ...SPEC_BASE,
    title,
    data: { values },
    width: { step: 24 },
    height: 220,
    mark: { type: 'bar', tooltip: true },
    encoding: {
      column: COLUMN,
      x: { field: 'method', type: 'nominal', axis: { labelAngle: -30 } },
      y: { field, type: 'quantitative', title: yTitle, stack: 'zero' },
      color: { field: 'stage', type: 'nominal' },
    },
  };
}

export async function efficiencySection(
  store: ResultStore,
  run: PlanRun,
  chartsDir: string,
  resamples: number,
): Promise<PlanSection> {
  const title = `Experiment 5 — efficiency, run ${run.name}`;
  const per = await loadEfficiency(store, run, resamples);
  const marks = await loadDegradedMarks(store);
  const [warm] = await store.query<{ value: string }>(
    `SELECT value FROM checkpoints WHERE run_id = $1 AND method = '(run)' AND key = 'warmup'`,
    [run.runId],
  );
  const warmupMs = warm ? (JSON.parse(warm.value) as { warmupMs?: number }).warmupMs : undefined;
  const table = efficiencyTable(per, run, marks);
  const text = [
    `${title}  — latency is each question's method time (warm-up excluded), per dataset; stages inside AdaptMR from its notes; overhead = Σ latency / Σ ${run.reference} latency over the same questions (BCa CI; ${per.map((d) => `${d.dataset}: ${d.eff[0]?.bootstrap ?? 'question'}s resampled`).join(', ')})`,
    table.toString(),
    `warm-up (methods created and models loaded, embedder vectors loaded, question catalogue read), once per run: ${warmupMs === undefined ? 'not recorded (older run)' : `${(warmupMs / 1000).toFixed(1)} s`}`,
    `timing: each question timed ${run.input.timingRepeats}× (timingRepeats), the median kept; without an llm: block only retrieval is timed — the plan's 30% is end to end, reader included`,
    `headline for the operating points: ${runHeadlineTitle(run)}`,
    await sectionVerdicts(
      store,
      run.experiment,
      'Verdicts, plan prediction "AdaptMR overhead < 30%" (reached = ratio CI below 1.3; judged only with ≥ 3 timing repeats and a reference of ≥ 1 ms per question)',
    ),
  ];
  const files: ChartFiles[] = [];
  const names = ['exp5-efficiency', 'exp5-efficiency-stages', 'exp5-efficiency-tokens'];
  for (const [i, spec] of charts(
    per,
    title,
    (d) => `${d}: ${headlineTitle(run.headlineOf(d))}`,
    (m) => markedMethod(marks, run.runId, m),
  ).entries())
    files.push(await renderChart(spec, join(chartsDir, names[i]!)));
  return {
    experiment: 'efficiency',
    text: text.join('\n'),
    charts: files,
    title,
    notes: [text[0]!.slice(title.length + 4), ...text.slice(2, 5)],
    tables: [tableData('Latency, added milliseconds and overhead ratio per method', table)],
  };
}

/** Per dataset, each method's timings, calls and headline mean; latencies differ with the haystack, never pooled. */
async function loadEfficiency(store: ResultStore, run: PlanRun, resamples: number): Promise<DatasetEfficiency[]> {
  const rows = await store.query<{
    dataset: string;
    method: string;
    question_id: string;
    latency_ms: number;
    route: string | null;
    notes: string | null;
    error: string | null;
  }>(`SELECT dataset, method, question_id, latency_ms, route, notes, error FROM retrievals WHERE run_id = $1`, [
    run.runId,
  ]);
  const calls = await store.query<{
    dataset: string;
    method: string;
    question_id: string;
    stage: string;
    prompt_tokens: number;
    completion_tokens: number;
    latency_ms: number;
  }>(
    `SELECT dataset, method, question_id, stage, prompt_tokens, completion_tokens, latency_ms FROM llm_calls WHERE run_id = $1`,
    [run.runId],
  );
  // Labelled by method id alone: one run, so within a dataset the id is unique (granularity may differ by dataset).
  const allMeans = (await typeMeansOfRuns(store, [run.runId], run.headlineOf, (k) => k.method)).filter(
    (r) => r.adaptType === 'all' && !r.na,
  );
  const datasets = run.datasets.length > 0 ? run.datasets : [...new Set(rows.map((r) => r.dataset))];
  // Per dataset: latencies differ with the haystack (LongMemEval sessions vs LoCoMo turns), so they are never pooled.
  return datasets.map((dataset) => {
    const timings: QuestionTiming[] = rows
      .filter((r) => r.dataset === dataset)
      .map((r) => ({
        method: r.method,
        questionId: r.question_id,
        latencyMs: r.latency_ms,
        stageMs: stageMs(r.notes),
        route: r.route,
        error: r.error !== null,
      }));
    const callRows: CallRow[] = calls
      .filter((c) => c.dataset === dataset)
      .map((c) => ({
        method: c.method,
        questionId: c.question_id,
        stage: c.stage,
        promptTokens: c.prompt_tokens,
        completionTokens: c.completion_tokens,
        latencyMs: c.latency_ms,
      }));
    const means = new Map(
      allMeans
        .filter((r) => r.dataset === dataset)
        .map((r) => [r.series, { mean: r.mean, ...(r.ciLow !== undefined ? { lo: r.ciLow, hi: r.ciHigh } : {}) }]),
    );
    return { dataset, eff: efficiencyOf(timings, callRows, run.reference, { resamples, seed: run.seed }), means };
  });
}

/** Latency, added milliseconds and overhead ratio per dataset and method (calls, tokens and routes beside them). */
function efficiencyTable(
  per: readonly DatasetEfficiency[],
  run: PlanRun,
  marks: Awaited<ReturnType<typeof loadDegradedMarks>>,
): Table.Table {
  const table = new Table({
    head: [
      'dataset',
      'method',
      'n',
      'mean ms',
      'p50 ms',
      'p95 ms',
      `added ms / q vs ${run.reference} (median, p95)`,
      `ratio [95% CI]`,
      'ms per stage',
      'calls / q by stage',
      'tokens / q',
      'routes',
    ],
    style: { head: [], border: [], compact: true },
  });
  for (const { dataset, eff } of per) {
    // The ratio only over a base of at least 1 ms per question: over a ~0.1 ms dot product it says nothing.
    const ref = eff.find((e) => e.method === run.reference);
    const ratioShown = ref !== undefined && ref.p50Ms >= OVERHEAD_BASE_MIN_MS;
    for (const e of eff) {
      table.push([
        dataset,
        markedMethod(marks, run.runId, e.method),
        e.n,
        ms(e.meanMs),
        ms(e.p50Ms),
        ms(e.p95Ms),
        e.addedMs
          ? `${signed(e.addedMs.median)}, ${signed(e.addedMs.p95)}`
          : e.method === run.reference
            ? '(reference)'
            : '—',
        e.method === run.reference
          ? '1 (reference)'
          : !ratioShown
            ? `n/a, base < ${OVERHEAD_BASE_MIN_MS} ms`
            : e.overhead
              ? `${e.overhead.estimate.toFixed(2)}× [${e.overhead.low.toFixed(2)}, ${e.overhead.high.toFixed(2)}]`
              : '—',
        fmtMap(e.stageMeanMs, ms),
        fmtMap(e.callsPerQuestion, (x) => x.toFixed(2)),
        fmtMap(e.tokensPerQuestion, (x) => x.toFixed(0)),
        fmtMap(e.routeShare, pct),
      ]);
    }
  }
  return table;
}
