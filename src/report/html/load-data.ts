/**
 * Everything the HTML report shows, read from a results file (opened read-only) into plain JSON-able rows. A
 * section's rows are empty when the file has nothing for it, and optional columns (`scores_by_type.ci_low/ci_high`,
 * the `comparisons` table of the statistics issue) are read only when the file has them, so the page shows what the
 * file holds and omits the rest. Series labels are shared with the text report (series-label.ts), stand-ins marked
 * "(offline)"; the verdicts are the stored `verdicts` table.
 */
import { chanceNote } from '../chance-note.ts';
import { loadNativeScores, type NativeTypeScore } from '../native-types.ts';
import { readFindings, readVerdicts, type FindingRow, type ResultStore, type VerdictRow } from '../../store/index.ts';
import { loadDegradedMarks, loadMethodMarks, seriesLabeller, type SeriesKey } from '../series-label.ts';
import { loadCostPerCorrect, type CostPerCorrectRow } from '../cost-per-correct.ts';
import { variationLabel, variationOfRun } from '../claim-label.ts';
import { markedLabel, methodColor } from '../palette.ts';
import { loadProviderCuts, providerCutsText } from '../provider-cuts.ts';
import { loadPlanRuns } from '../plan/plan-runs.ts';
import { judgeSections } from '../judges-section.ts';
import { loadExperimentViews, type ExperimentView } from './experiment-views.ts';
import { loadUnitTexts, type UnitTexts } from './unit-text.ts';
import type { Comparison, DatasetHeadline, DrillMethod, DrillQuestion, TypeScore } from './browser/payload.ts';

// The page's payload types are declared once, where the browser script reads them.
export type { Comparison, DatasetHeadline, DrillMethod, DrillQuestion, TypeScore };

export interface RunInfo {
  runId: string;
  name: string;
  status: string;
  configHash: string;
  gitCommit: string | null;
  gitDirty: boolean | null;
  seed: number;
  startedAt: string;
  endedAt: string | null;
  config: unknown;
  packageVersions: Record<string, string>;
  datasetHashes: unknown;
  /** The model and calibration files the run read, with their sha256 (run checkpoint `input-files`). */
  inputFiles: unknown;
}

export interface MethodInfo {
  runId: string;
  method: string;
  series: string;
  kind: string;
  granularity: string;
  k: number;
  output: string;
  upperBound: boolean;
  degraded: string | null;
  /** A memory system's provider cut to k or returning fewer (the fairness contract; provider-cuts.ts), or null. */
  providerCuts: string | null;
}

export interface Efficiency {
  dataset: string;
  series: string;
  upperBound: boolean;
  stage: string;
  calls: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

export interface RouteShare {
  dataset: string;
  series: string;
  route: string;
  n: number;
}

export interface ReportData {
  file: string;
  experiment: string | null;
  schemaVersion: string;
  generatedAt: string;
  runs: RunInfo[];
  methods: MethodInfo[];
  scores: TypeScore[];
  hasCi: boolean;
  comparisons: Comparison[];
  efficiency: Efficiency[];
  routes: RouteShare[];
  questions: DrillQuestion[];
  /** The `verdicts` table as stored (none recomputed); method ids of stand-ins in `methodMarks`. */
  verdicts: VerdictRow[];
  /** The `findings` table as stored: what the verdicts show (the page opens with it). */
  findings: FindingRow[];
  /** Per native type, for datasets whose AdaptMR types pool several (src/report/native-types.ts), at the headline. */
  nativeScores?: NativeTypeScore[];
  /** Why the `chance` flag cannot fire on some datasets (a file before schema 5), or null (chance-note.ts). */
  chanceNote?: string | null;
  methodMarks: Record<string, string>;
  /** What a correct answer costs per dataset × method (src/report/cost-per-correct.ts). */
  costPerCorrect: CostPerCorrectRow[];
  /** Units listed per method in the drill-down (the first of k). */
  unitsShown: number;
  /** Each dataset's headline, from the file's plan runs; empty for a file without them. */
  headlines: Record<string, DatasetHeadline>;
  /** Series label (marked) → its colour: its method id's (palette.ts); a method of several sweep runs by id and run. */
  colors: Record<string, string>;
  /** Run id → how labels name it (a sweep's variation in words, else the run's name). */
  runLabels: Record<string, string>;
  /** The plan experiments' sections as data (titles, notes, tables, chart specs); empty unless asked for. */
  experiments: ExperimentView[];
  /** The drill-down's unit texts and dates (read back from the dataset, unit-text.ts) and why some are missing. */
  unitTexts: UnitTexts;
  unitNotes: string[];
  /** The terminal report's judge-panel sections (agreement, robustness), as text. */
  judgeText: string[];
}

export interface LoadOptions {
  /** Read unit texts back from the datasets (default true; the notebooks skip it). */
  unitTexts?: boolean;
  /** Build the plan sections' tables and charts (default true). */
  experiments?: boolean;
  /** Where the datasets are (as `adaptmr run --data-dir`). */
  dataDir?: string | undefined;
}

export const UNITS_SHOWN = 10;

async function columns(store: ResultStore, table: string): Promise<Set<string>> {
  const rows = await store.query<{ column_name: string }>(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' AND table_name = $1",
    [table],
  );
  return new Set(rows.map((r) => r.column_name));
}

const json = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

async function loadRuns(store: ResultStore): Promise<RunInfo[]> {
  const rows = await store.query<Record<string, string | number | boolean | null>>(
    'SELECT * FROM runs ORDER BY started_at, run_id',
  );
  const inputs = new Map(
    (
      await store.query<{ run_id: string; value: string }>(
        `SELECT run_id, value FROM checkpoints WHERE method = '(run)' AND key = 'input-files'`,
      )
    ).map((r) => [r.run_id, r.value]),
  );
  return rows.map((r) => ({
    runId: String(r.run_id),
    name: String(r.name),
    status: String(r.status),
    configHash: String(r.config_hash),
    gitCommit: r.git_commit as string | null,
    gitDirty: r.git_dirty as boolean | null,
    seed: Number(r.seed),
    startedAt: String(r.started_at),
    endedAt: r.ended_at as string | null,
    config: json(r.config_json as string),
    packageVersions: json(r.package_versions as string) as Record<string, string>,
    datasetHashes: json(r.dataset_hashes as string),
    inputFiles: (json(inputs.get(String(r.run_id)) ?? null) as { files?: unknown } | null)?.files ?? null,
  }));
}

interface Labelled extends SeriesKey {
  upper_bound: boolean | null;
}

type Label = (k: SeriesKey) => string;

/**
 * How the page names each series: its label (a sweep's runs named by their variation in words; granularity joins a
 * label only where one dataset holds a method at two granularities), whether it is gold-type routing, and the
 * runs' labels.
 */
async function seriesNames(store: ResultStore) {
  const keys = await store.query<SeriesKey>(
    `SELECT DISTINCT run_id, method, granularity FROM retrievals UNION SELECT DISTINCT run_id, method, granularity FROM scores`,
  );
  const runRows = await store.query<{ run_id: string; name: string }>('SELECT run_id, name FROM runs');
  // A sweep's runs are `<name>.<variation>`: labels name the variation in words ("w/o temporal strategy").
  const runLabels = Object.fromEntries(
    runRows.map((r) => [r.run_id, r.name.includes('.') ? variationLabel(variationOfRun(r.name)) : r.name]),
  );
  // Granularity joins a label only where one dataset holds a method at two granularities: a method indexed as
  // sessions on LongMemEval and as turns on LoCoMo (per-dataset settings) is one series, the panel names the dataset.
  const grans = new Map<string, Set<string>>();
  for (const k of await store.query<SeriesKey & { dataset: string }>(
    `SELECT DISTINCT run_id, dataset, method, granularity FROM retrievals`,
  )) {
    const key = `${k.run_id}\t${k.dataset}\t${k.method}`;
    grans.set(key, (grans.get(key) ?? new Set()).add(k.granularity));
  }
  const mixed = new Set([...grans].filter(([, g]) => g.size > 1).map(([key]) => key.split('\t')[2]!));
  const norm = (k: SeriesKey): SeriesKey => (mixed.has(k.method) ? k : { ...k, granularity: '' });
  const byRun = seriesLabeller(keys.map(norm), await loadDegradedMarks(store), (id) => runLabels[id] ?? id);
  const label: Label = (k) => byRun(norm(k));
  const upper = new Set(
    (await store.query<SeriesKey>('SELECT run_id, method, granularity FROM methods WHERE upper_bound')).map(
      (r) => `${r.run_id}\t${r.method}`,
    ),
  );
  const isUpper = (r: SeriesKey): boolean => upper.has(`${r.run_id}\t${r.method}`);
  return { keys, runLabels, label, isUpper };
}

/** One colour per method id; a method that ran in several runs (a sweep) gets one per run, from id and run. */
function seriesColors(
  keys: readonly SeriesKey[],
  label: Label,
  isUpper: (r: SeriesKey) => boolean,
  runLabels: Record<string, string>,
): Record<string, string> {
  const runsOf = new Map<string, Set<string>>();
  for (const k of keys) runsOf.set(k.method, (runsOf.get(k.method) ?? new Set()).add(k.run_id));
  const colors: Record<string, string> = {};
  for (const k of keys) {
    const many = (runsOf.get(k.method)?.size ?? 0) > 1;
    colors[markedLabel(label(k), isUpper(k))] = methodColor(
      many ? `${k.method}/${runLabels[k.run_id] ?? k.run_id}` : k.method,
    );
  }
  return colors;
}

/** The methods table, each with its series label and (memory systems) how often its provider was cut to k. */
async function loadMethods(store: ResultStore, label: Label): Promise<MethodInfo[]> {
  const cuts = new Map((await loadProviderCuts(store)).map((c) => [`${c.runId}\t${c.method}`, providerCutsText(c)]));
  return (
    await store.query<Labelled & { kind: string; k: number; output: string; degraded: string | null }>(
      'SELECT * FROM methods ORDER BY run_id, method',
    )
  ).map((m) => ({
    runId: m.run_id,
    method: m.method,
    series: label(m),
    kind: m.kind,
    granularity: m.granularity,
    k: m.k,
    output: m.output,
    upperBound: m.upper_bound === true,
    degraded: m.degraded,
    providerCuts: cuts.get(`${m.run_id}\t${m.method}`) ?? null,
  }));
}

/** Every cell of scores_by_type over all native types, with its CI when the file has CIs. */
async function loadScores(
  store: ResultStore,
  label: Label,
  isUpper: (r: SeriesKey) => boolean,
): Promise<{ scores: TypeScore[]; hasCi: boolean }> {
  const hasCi = hasCiCols(await columns(store, 'scores_by_type'));
  const ci = hasCi ? 'ci_low, ci_high' : 'NULL AS ci_low, NULL AS ci_high';
  const rows = await store.query<
    SeriesKey & {
      dataset: string;
      level: string;
      metric: string;
      k: number | null;
      adapt_type: string;
      n: number;
      mean: number;
      ci_low: number | null;
      ci_high: number | null;
    }
  >(
    `SELECT run_id, dataset, method, granularity, level, metric, k, adapt_type, n, mean, ${ci}
     FROM scores_by_type WHERE native_type = 'all' ORDER BY dataset, method, run_id, level, metric, k, adapt_type`,
  );
  const scores = rows.map((r) => ({
    dataset: r.dataset,
    series: label(r),
    upperBound: isUpper(r),
    level: r.level,
    metric: r.metric,
    k: r.k,
    granularity: r.granularity,
    type: r.adapt_type,
    n: r.n,
    mean: r.mean,
    ciLow: r.ci_low,
    ciHigh: r.ci_high,
  }));
  return { scores, hasCi };
}

/** Each dataset's headline, from the first plan run that has it. */
async function loadHeadlines(store: ResultStore): Promise<Record<string, DatasetHeadline>> {
  const headlines: Record<string, DatasetHeadline> = {};
  for (const run of await loadPlanRuns(store)) {
    for (const d of run.datasets) if (!headlines[d]) headlines[d] = run.headlineOf(d);
  }
  return headlines;
}

/** The dates and first lines of every unit the drill-down shows, read back from the datasets (`unitTexts: false`: none). */
async function drillTexts(
  store: ResultStore,
  questions: readonly DrillQuestion[],
  opts: LoadOptions,
): Promise<{ units: UnitTexts; notes: string[] }> {
  if (opts.unitTexts === false) return { units: {}, notes: [] };
  const wanted = new Map(
    questions.map((q) => [`${q.dataset}\t${q.id}`, new Set(q.methods.flatMap((m) => m.units.map((u) => u[0])))]),
  );
  return loadUnitTexts(store, wanted, opts.dataDir);
}

export async function loadReportData(store: ResultStore, file: string, opts: LoadOptions = {}): Promise<ReportData> {
  const { keys, runLabels, label, isUpper } = await seriesNames(store);
  const meta = new Map(
    (await store.query<{ key: string; value: string }>('SELECT key, value FROM meta')).map((r) => [r.key, r.value]),
  );
  const colors = seriesColors(keys, label, isUpper, runLabels);
  const methods = await loadMethods(store, label);
  const { scores, hasCi } = await loadScores(store, label, isUpper);
  const tables = new Set(
    (
      await store.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'",
      )
    ).map((t) => t.table_name),
  );
  const comparisons = tables.has('comparisons')
    ? await store.query<Comparison>('SELECT * FROM comparisons ORDER BY ALL')
    : [];
  const headlines = await loadHeadlines(store);
  const questions = await loadQuestions(store, label, isUpper);
  const { units: unitTexts, notes: unitNotes } = await drillTexts(store, questions, opts);
  return {
    file,
    experiment: meta.get('experiment') ?? null,
    schemaVersion: meta.get('schema_version') ?? '?',
    generatedAt: new Date().toISOString(),
    runs: await loadRuns(store),
    methods,
    scores,
    hasCi,
    comparisons,
    efficiency: await loadEfficiency(store, label, isUpper),
    routes: await loadRoutes(store, label),
    costPerCorrect: await loadCostPerCorrect(store, label),
    questions,
    unitsShown: UNITS_SHOWN,
    verdicts: await readVerdicts(store),
    findings: await readFindings(store),
    chanceNote: await chanceNote(store),
    nativeScores: await loadNativeScores(store, headlines, label, isUpper, hasCi),
    methodMarks: Object.fromEntries(await loadMethodMarks(store)),
    headlines,
    colors,
    runLabels,
    experiments: opts.experiments === false ? [] : await loadExperimentViews(store),
    unitTexts,
    unitNotes,
    judgeText: tables.has('answer_verdicts') ? await judgeSections(store, label) : [],
  };
}

function hasCiCols(cols: Set<string>): boolean {
  return cols.has('ci_low') && cols.has('ci_high');
}

async function loadEfficiency(
  store: ResultStore,
  label: (r: SeriesKey) => string,
  isUpper: (r: SeriesKey) => boolean,
): Promise<Efficiency[]> {
  const rows = await store.query<
    SeriesKey & {
      dataset: string;
      stage: string;
      calls: number;
      errors: number;
      p50: number;
      p95: number;
      mean: number;
      prompt: number;
      completion: number;
      cost: number;
    }
  >(`
    SELECT run_id, dataset, method, granularity, 'retrieval' AS stage, count(*) AS calls, count(error) AS errors,
           quantile_cont(latency_ms, 0.5) AS p50, quantile_cont(latency_ms, 0.95) AS p95, avg(latency_ms) AS mean,
           0 AS prompt, 0 AS completion, 0 AS cost
    FROM retrievals GROUP BY ALL
    UNION ALL
    SELECT c.run_id, c.dataset, c.method, coalesce(any_value(r.granularity), '') AS granularity, c.stage, count(*), count(c.error),
           quantile_cont(c.latency_ms, 0.5), quantile_cont(c.latency_ms, 0.95), avg(c.latency_ms),
           sum(c.prompt_tokens)::DOUBLE / count(DISTINCT c.question_id), sum(c.completion_tokens)::DOUBLE / count(DISTINCT c.question_id),
           sum(c.cost_usd)
    FROM llm_calls c LEFT JOIN retrievals r ON r.run_id = c.run_id AND r.dataset = c.dataset AND r.question_id = c.question_id AND r.method = c.method
    GROUP BY c.run_id, c.dataset, c.method, c.stage
    ORDER BY ALL`);
  return rows.map((r) => ({
    dataset: r.dataset,
    series: label(r),
    upperBound: isUpper(r),
    stage: r.stage,
    calls: r.calls,
    errors: r.errors,
    p50Ms: r.p50,
    p95Ms: r.p95,
    meanMs: r.mean,
    promptTokens: r.prompt,
    completionTokens: r.completion,
    costUsd: r.cost,
  }));
}

async function loadRoutes(store: ResultStore, label: (r: SeriesKey) => string): Promise<RouteShare[]> {
  const rows = await store.query<SeriesKey & { dataset: string; route: string; n: number }>(
    `SELECT run_id, dataset, method, granularity, route, count(*) AS n FROM retrievals WHERE route IS NOT NULL GROUP BY ALL ORDER BY ALL`,
  );
  return rows.map((r) => ({ dataset: r.dataset, series: label(r), route: r.route, n: r.n }));
}

interface DrillRow extends SeriesKey {
  dataset: string;
  question_id: string;
  predicted_type: string | null;
  route: string | null;
  unit_ids: string[];
  unit_session_ids: string[];
  scores: number[];
  k: number | null;
  no_memory: boolean;
  latency_ms: number;
  error: string | null;
  answer: string | null;
  judge_verdicts: string | null;
  tokens: number | null;
  calls: number | null;
  hit: number | null;
}

async function loadQuestions(
  store: ResultStore,
  label: (r: SeriesKey) => string,
  isUpper: (r: SeriesKey) => boolean,
): Promise<DrillQuestion[]> {
  const qs = await store.query<{
    dataset: string;
    question_id: string;
    text: string;
    asked_at: string;
    native_type: string;
    adapt_type: string;
    is_abstention: boolean;
    answer: string;
    evidence_session_ids: string[];
    evidence_turn_ids: string[];
  }>('SELECT DISTINCT ON (dataset, question_id) * FROM questions ORDER BY dataset, question_id, run_id');
  const degraded = new Map(
    (
      await store.query<{ run_id: string; method: string; degraded: string | null }>(
        'SELECT run_id, method, degraded FROM methods',
      )
    ).map((m) => [`${m.run_id}\t${m.method}`, m.degraded]),
  );
  // One row per question × method, with its answer, verdicts, LLM tokens and the headline hit (recall_any at the
  // method's own k, session level) when scored.
  const rows = await store.query<DrillRow>(`
    WITH calls AS (SELECT run_id, dataset, question_id, method, sum(prompt_tokens + completion_tokens) AS tokens, count(*) AS calls
                   FROM llm_calls GROUP BY ALL),
         hits AS (SELECT run_id, dataset, question_id, method, max(value) AS hit FROM scores
                  WHERE metric = 'recall_any' AND level = 'session' AND k = (SELECT max(k) FROM scores WHERE metric = 'recall_any' AND level = 'session')
                  GROUP BY ALL)
    SELECT r.run_id, r.dataset, r.question_id, r.method, r.granularity, r.predicted_type, r.route,
           r.unit_ids[1:${UNITS_SHOWN}] AS unit_ids, r.unit_session_ids[1:${UNITS_SHOWN}] AS unit_session_ids,
           r.scores[1:${UNITS_SHOWN}] AS scores, r.k, r.no_memory, r.latency_ms, coalesce(r.error, a.error) AS error,
           a.answer, a.judge_verdicts, coalesce(c.tokens, 0) + coalesce(a.context_tokens, 0) AS tokens, c.calls, h.hit
    FROM retrievals r
    LEFT JOIN answers a USING (run_id, dataset, question_id, method)
    LEFT JOIN calls c USING (run_id, dataset, question_id, method)
    LEFT JOIN hits h USING (run_id, dataset, question_id, method)
    ORDER BY r.dataset, r.question_id, r.method, r.run_id`);
  const byQuestion = new Map<string, DrillMethod[]>();
  for (const r of rows) {
    const key = `${r.dataset}\t${r.question_id}`;
    const list = byQuestion.get(key) ?? [];
    const verdicts = (json(r.judge_verdicts) as { correct?: boolean[] }[] | null) ?? [];
    list.push({
      series: label(r),
      upperBound: isUpper(r),
      degraded: degraded.get(`${r.run_id}\t${r.method}`) ?? null,
      predictedType: r.predicted_type,
      route: r.route,
      units: r.unit_ids.map((u, i) => [u, r.unit_session_ids[i] ?? '', r.scores[i] ?? NaN]),
      k: r.k,
      noMemory: r.no_memory,
      latencyMs: r.latency_ms,
      error: r.error,
      answer: r.answer,
      verdicts: verdicts.flatMap((v) => v.correct ?? []),
      tokens: r.tokens ?? 0,
      calls: r.calls ?? 0,
      hit: r.hit,
    });
    byQuestion.set(key, list);
  }
  return qs.map((q) => ({
    dataset: q.dataset,
    id: q.question_id,
    text: q.text,
    askedAt: q.asked_at,
    nativeType: q.native_type,
    type: q.adapt_type,
    isAbstention: q.is_abstention,
    answer: q.answer,
    evidenceSessions: q.evidence_session_ids,
    evidenceTurns: q.evidence_turn_ids,
    methods: byQuestion.get(`${q.dataset}\t${q.question_id}`) ?? [],
  }));
}
