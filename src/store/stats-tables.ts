/**
 * Keeps a results file's statistics (tables `score_cis`, `comparisons` and `verdicts`, the CI columns of
 * `scores_by_type`) in step with its rows. The statistics are a pure function of the counted scores, the questions and each run's
 * `stats:` settings (src/eval/stats/results), so they are recomputed — deterministically — whenever those change:
 * at the end of `adaptmr run`, by `adaptmr report`, and after a merge. A fingerprint of the inputs, stored in
 * `meta`, makes an unchanged file a no-op.
 */
import { parseStoredConfig } from './stored-config.ts';
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import { stableHash } from '../core/hash.ts';
import { StatsConfigSchema } from '../core/stats-config.ts';
import {
  computeComparisons,
  computeScoreCis,
  resolveRunStats,
  type RunStats,
  type ScoreInput,
} from '../eval/stats/results/index.ts';
import { PlanCache } from '../eval/stats/resample.ts';
import {
  computeJudgeAgreement,
  computeJudgeComparisons,
  type VerdictInput as JudgeVerdictInput,
} from '../eval/qa/agreement/index.ts';
import { headlineGoldOf } from '../eval/qa/panel.ts';
import { computeFindings, computeVerdicts, type PlanClaims, type VerdictInput } from '../eval/verdicts/index.ts';
import { averageReplicates } from '../eval/verdicts/replicates.ts';
import { loadMethodFacts, loadPlanRunInputs, loadQuestionFacts, loadRetrievalFacts } from './verdicts-table.ts';
import type { ResultStore } from './types.ts';

/** Bumped when the statistics code changes what it stores, so older tables are recomputed (2: verdicts and declared families; 3: experiment 1 MDE; 5: beyond-benchmarks and router-transfer verdicts). */
export const STATS_VERSION = 8;

const RunConfig = z
  .object({
    name: z.string(),
    seed: z.number().int(),
    methods: z.array(z.object({ id: z.string(), method: z.string() }).passthrough()),
    stats: StatsConfigSchema.optional(),
  })
  .passthrough();

/** A hash of everything the statistics depend on. */
export async function statsFingerprint(store: ResultStore): Promise<string> {
  const [scores] = await store.query<{ n: number; h: string | null }>(
    `SELECT count(*) AS n, sum(hash(run_id, dataset, question_id, method, granularity, level, metric, k, value))::VARCHAR AS h
     FROM scores WHERE counted`,
  );
  const [questions] = await store.query<{ h: string | null }>(
    `SELECT sum(hash(run_id, dataset, question_id, adapt_type, native_type))::VARCHAR AS h FROM questions`,
  );
  const runs = await store.query<{ run_id: string; config_json: string }>(
    `SELECT run_id, config_json FROM runs ORDER BY run_id`,
  );
  // The judges' verdicts enter the judge-panel statistics; the plan verdicts also read the retrievals (latency,
  // ranking, route, empty) and the methods' declared capabilities.
  const [judged] = await store.query<{ n: number; h: string | null }>(
    `SELECT count(*) AS n, sum(hash(run_id, dataset, question_id, method, probe, judge, gold, correct))::VARCHAR AS h FROM answer_verdicts`,
  );
  const [retrievals] = await store.query<{ h: string | null }>(
    `SELECT sum(hash(run_id, dataset, question_id, method, latency_ms, unit_ids, no_memory, route, error))::VARCHAR AS h FROM retrievals`,
  );
  const [methods] = await store.query<{ h: string | null }>(
    `SELECT sum(hash(run_id, method, kind, upper_bound, degraded, output, capabilities))::VARCHAR AS h FROM methods`,
  );
  return stableHash({
    v: STATS_VERSION,
    scores,
    questions,
    judged,
    retrievals,
    methods,
    runs: runs.map((r) => [r.run_id, stableHash(r.config_json)]),
  });
}

export async function loadRunStats(store: ResultStore): Promise<Map<string, RunStats>> {
  const runs = await store.query<{ run_id: string; name: string; config_json: string }>(
    `SELECT run_id, name, config_json FROM runs ORDER BY run_id`,
  );
  const idOfName = (name: string): string | undefined => runs.filter((r) => r.name === name).at(-1)?.run_id;
  const out = new Map<string, RunStats>();
  for (const r of runs) {
    const parsed = RunConfig.safeParse(parseStoredConfig(r.config_json, r.run_id, store.path));
    if (!parsed.success)
      throw new InputError(
        `run ${r.run_id}: stored config has no valid methods/stats (${parsed.error.issues[0]?.message})`,
        store.path,
      );
    out.set(r.run_id, resolveRunStats(r.run_id, parsed.data, idOfName));
  }
  return out;
}

/**
 * Every counted score with its question's types. The key columns repeat the same few strings on every row, and
 * decoding strings is most of what reading rows costs (~0.1 s for 10,000 rows), so they are read once per question
 * and once per cell, and the 10,000 rows come as (cell, question, value) numbers.
 */
export async function loadScoreInputs(store: ResultStore): Promise<ScoreInput[]> {
  const questionsSql = `SELECT run_id, dataset, question_id, adapt_type, native_type,
      (row_number() OVER (ORDER BY run_id, dataset, question_id))::INTEGER - 1 AS qi FROM questions`;
  const cellsSql = `SELECT run_id, dataset, method, granularity, level, metric, k,
      (row_number() OVER (ORDER BY run_id, dataset, method, granularity, level, metric, k))::INTEGER - 1 AS ci
      FROM (SELECT DISTINCT run_id, dataset, method, granularity, level, metric, k FROM scores WHERE counted)`;
  const questions = await store.query<{
    run_id: string;
    dataset: string;
    question_id: string;
    adapt_type: string;
    native_type: string;
    qi: number;
  }>(questionsSql);
  const cells = await store.query<{
    run_id: string;
    dataset: string;
    method: string;
    granularity: string;
    level: string;
    metric: string;
    k: number | null;
    ci: number;
  }>(cellsSql);
  const rows = await store.query<{ ci: number; qi: number; value: number }>(
    `WITH q AS (${questionsSql}), c AS (${cellsSql})
     SELECT c.ci, q.qi, s.value FROM scores s
     JOIN q ON q.run_id = s.run_id AND q.dataset = s.dataset AND q.question_id = s.question_id
     JOIN c ON c.run_id = s.run_id AND c.dataset = s.dataset AND c.method = s.method AND c.granularity = s.granularity
       AND c.level = s.level AND c.metric = s.metric AND c.k IS NOT DISTINCT FROM s.k
     WHERE s.counted`,
  );
  const q = new Array<(typeof questions)[number]>(questions.length);
  for (const r of questions) q[r.qi] = r;
  const c = new Array<(typeof cells)[number]>(cells.length);
  for (const r of cells) c[r.ci] = r;
  return rows.map(({ ci, qi, value }) => {
    const cell = c[ci]!;
    const question = q[qi]!;
    return {
      runId: cell.run_id,
      dataset: cell.dataset,
      questionId: question.question_id,
      method: cell.method,
      granularity: cell.granularity,
      level: cell.level,
      metric: cell.metric,
      k: cell.k,
      value,
      adaptType: question.adapt_type,
      nativeType: question.native_type,
    };
  });
}

/**
 * Every judge's verdict on a real answer (not a probe) against its run's headline gold version, with the question's
 * types and whether its `accuracy` score counts (answers without one, e.g. LoCoMo category 5, count as not counted).
 */
export async function loadVerdictInputs(store: ResultStore): Promise<JudgeVerdictInput[]> {
  const runs = await store.query<{ run_id: string; config_json: string }>(`SELECT run_id, config_json FROM runs`);
  const headline = new Map(runs.map((r) => [r.run_id, headlineGoldOf(r.config_json)]));
  const rows = await store.query<{
    run_id: string;
    dataset: string;
    question_id: string;
    method: string;
    judge: string;
    gold: string;
    correct: boolean[];
    adapt_type: string;
    native_type: string;
    granularity: string | null;
    counted: boolean | null;
  }>(
    `SELECT v.run_id, v.dataset, v.question_id, v.method, v.judge, v.gold, v.correct, q.adapt_type, q.native_type,
            s.granularity, s.counted
     FROM answer_verdicts v
     JOIN questions q ON q.run_id = v.run_id AND q.dataset = v.dataset AND q.question_id = v.question_id
     LEFT JOIN scores s ON s.run_id = v.run_id AND s.dataset = v.dataset AND s.question_id = v.question_id AND s.method = v.method
       AND s.level = 'qa' AND s.metric = 'accuracy'
     WHERE v.probe = ''
     ORDER BY v.run_id, v.dataset, v.question_id, v.method, v.judge`,
  );
  return rows
    .filter((r) => r.gold === (headline.get(r.run_id)?.(r.dataset) ?? 'original'))
    .map((r) => ({
      runId: r.run_id,
      dataset: r.dataset,
      questionId: r.question_id,
      method: r.method,
      granularity: r.granularity ?? '',
      adaptType: r.adapt_type,
      nativeType: r.native_type,
      judge: r.judge,
      correct: r.correct,
      counted: r.counted === true,
    }));
}

export interface RefreshResult {
  /** False when the stored statistics were already up to date. */
  recomputed: boolean;
  cells: number;
  comparisons: number;
  verdicts: number;
  ms: number;
}

/**
 * Recomputes and stores the statistics when the inputs changed since the last time (or always with `force`); the plan
 * verdicts are made by `experiments` (src/plan-experiments/registry.ts, which this layer cannot import).
 */
export async function refreshStats(
  store: ResultStore,
  experiments: readonly PlanClaims[],
  opts: { force?: boolean } = {},
): Promise<RefreshResult> {
  const t0 = performance.now();
  const fingerprint = await statsFingerprint(store);
  const [stored] = await store.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'stats_fingerprint'`);
  if (!opts.force && stored?.value === fingerprint) {
    const [c] = await store.query<{ cells: number; cmp: number; v: number }>(
      `SELECT (SELECT count(*) FROM score_cis) AS cells, (SELECT count(*) FROM comparisons) AS cmp, (SELECT count(*) FROM verdicts) AS v`,
    );
    return {
      recomputed: false,
      cells: c?.cells ?? 0,
      comparisons: c?.cmp ?? 0,
      verdicts: c?.v ?? 0,
      ms: performance.now() - t0,
    };
  }
  const runs = await loadRunStats(store);
  const rows = await loadScoreInputs(store);
  // DuckDB folds the write-ahead log (a run's rows) into the database file on its own threads while the bootstrap
  // below runs on this one; `close` would otherwise do it after, on the critical path (~0.07 s for S with BM25).
  const checkpoint = store.readOnly ? undefined : store.query('CHECKPOINT');
  checkpoint?.catch(() => {}); // awaited below
  await new Promise((resolve) => setImmediate(resolve)); // the store's queue starts it before this thread is busy
  const [planRuns, methods, retrievals, questions] = await Promise.all([
    loadPlanRunInputs(store),
    loadMethodFacts(store),
    loadRetrievalFacts(store),
    loadQuestionFacts(store),
  ]);
  const plans = new PlanCache(32);
  const scoreCis = computeScoreCis(rows, runs, plans);
  const comparisons = computeComparisons(rows, runs, plans);
  const judgeVerdicts = await loadVerdictInputs(store);
  const judgeAgreement = computeJudgeAgreement(judgeVerdicts);
  const judgeComparisons = computeJudgeComparisons(judgeVerdicts, runs, plans);
  // Plan verdicts last: they declare the plan runs' Holm families, so they also set the comparisons' p_holm there.
  const verdicts = computeVerdicts(
    {
      scores: rows,
      questions,
      methods,
      retrievals,
      runs: planRuns,
      runStats: runs,
      comparisons,
      plans,
    },
    experiments,
  );
  await checkpoint;
  const findings = computeFindings(verdicts);
  await store.replaceStats({
    scoreCis,
    comparisons,
    judgeAgreement,
    judgeComparisons,
    verdicts,
    findings,
    fingerprint,
  });
  return {
    recomputed: true,
    cells: scoreCis.length,
    comparisons: comparisons.length,
    verdicts: verdicts.length,
    ms: performance.now() - t0,
  };
}

/**
 * Everything the verdicts are computed from, read from a file (the comparisons left empty): what a report needs to
 * show the descriptive numbers beside the stored verdicts (experiment 2's choices, ceiling and best single strategy).
 */
export async function loadVerdictInput(store: ResultStore): Promise<VerdictInput> {
  const [scores, questions, methods, retrievals, runs, runStats] = await Promise.all([
    loadScoreInputs(store),
    loadQuestionFacts(store),
    loadMethodFacts(store),
    loadRetrievalFacts(store),
    loadPlanRunInputs(store),
    loadRunStats(store),
  ]);
  return averageReplicates({ scores, questions, methods, retrievals, runs, runStats, comparisons: [] });
}
