/**
 * Reads the inputs of the analyses from a results file and stores their outputs back as tables
 * (`analysis_best_strategy`, rows keyed by the analysis parameters; `analysis_abstention`, replaced on every run). The file is opened read-write, so a file a running job holds fails with a message that says so.
 */
import { parseStoredConfig } from '../../store/stored-config.ts';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { InputError, errorMessage } from '../../core/errors.ts';
import { openResultStore, type ResultStore } from '../../store/index.ts';
import type { AbstentionDecisionRow, AbstentionScore } from './abstention.ts';
import type { BestStrategyRow, QuestionScore } from '../../eval/analysis/best-strategy.ts';
import type { SplitQuestion } from '../../eval/analysis/split.ts';

export async function openForAnalysis(path: string): Promise<ResultStore> {
  if (!existsSync(path)) throw new InputError('results file not found', path);
  try {
    return await openResultStore(path);
  } catch (err) {
    const msg = errorMessage(err);
    if (/lock/i.test(msg)) {
      throw new InputError(
        `the file is locked, probably by a running \`adaptmr run\` job writing it; analyse it when the job has ended (${msg})`,
        path,
      );
    }
    throw err;
  }
}

const MethodsOfConfig = z
  .object({ methods: z.array(z.object({ id: z.string(), method: z.string() }).passthrough()) })
  .passthrough();

/** Method ids by registry name, from the configs of the file's runs (`strategy` → candidates, …). */
export async function methodsByKind(store: ResultStore, runId?: string): Promise<Map<string, string[]>> {
  const runs = await store.query<{ run_id: string; config_json: string }>(
    `SELECT run_id, config_json FROM runs ${runId ? 'WHERE run_id = $1' : ''} ORDER BY run_id`,
    runId ? [runId] : [],
  );
  if (runId && runs.length === 0) throw new InputError(`no run "${runId}" in the file`, store.path);
  const out = new Map<string, string[]>();
  for (const r of runs) {
    const parsed = MethodsOfConfig.safeParse(parseStoredConfig(r.config_json, r.run_id, store.path));
    if (!parsed.success) throw new InputError(`run ${r.run_id}: config_json has no methods list`, store.path);
    for (const m of parsed.data.methods) {
      const list = out.get(m.method) ?? [];
      if (!list.includes(m.id)) list.push(m.id);
      out.set(m.method, list);
    }
  }
  return out;
}

const runFilter = (runId: string | undefined, alias: string): string => (runId ? `AND ${alias}.run_id = $RUN` : '');

function withRun(
  sql: string,
  runId: string | undefined,
  params: (string | number)[],
): { sql: string; params: (string | number)[] } {
  if (!runId) return { sql, params };
  return { sql: sql.replaceAll('$RUN', `$${params.length + 1}`), params: [...params, runId] };
}

/** Every question of the file (or of one run), for the split. */
export async function loadQuestions(store: ResultStore, runId?: string): Promise<SplitQuestion[]> {
  const q = withRun(
    `SELECT DISTINCT dataset, question_id, adapt_type FROM questions q WHERE true ${runFilter(runId, 'q')} ORDER BY dataset, question_id`,
    runId,
    [],
  );
  const rows = await store.query<{ dataset: string; question_id: string; adapt_type: string }>(q.sql, q.params);
  return rows.map((r) => ({ dataset: r.dataset, questionId: r.question_id, adaptType: r.adapt_type }));
}

/** Counted per-question scores of one metric / level / k (the rows the official averages use). */
export async function loadScores(
  store: ResultStore,
  sel: { metric: string; level: string; k: number },
  runId?: string,
): Promise<QuestionScore[]> {
  const q = withRun(
    `SELECT s.dataset, s.question_id, q.adapt_type, s.method, s.value
       FROM scores s JOIN questions q ON q.run_id = s.run_id AND q.dataset = s.dataset AND q.question_id = s.question_id
      WHERE s.counted AND s.metric = $1 AND s.level = $2 AND s.k = $3 ${runFilter(runId, 's')}`,
    runId,
    [sel.metric, sel.level, sel.k],
  );
  const rows = await store.query<{
    dataset: string;
    question_id: string;
    adapt_type: string;
    method: string;
    value: number;
  }>(q.sql, q.params);
  const seen = new Set<string>();
  for (const r of rows) {
    const key = `${r.dataset}\t${r.question_id}\t${r.method}`;
    if (seen.has(key))
      throw new InputError(
        `question ${r.question_id} of ${r.dataset} has scores of method "${r.method}" in several runs; choose one with --run`,
        store.path,
      );
    seen.add(key);
  }
  return rows.map((r) => ({
    dataset: r.dataset,
    questionId: r.question_id,
    adaptType: r.adapt_type,
    method: r.method,
    value: r.value,
  }));
}

/** The no-memory decision of every method on every question (error rows left out: they decided nothing). */
export async function loadAbstentionDecisions(store: ResultStore, runId?: string): Promise<AbstentionDecisionRow[]> {
  const q = withRun(
    `SELECT r.dataset, r.method, r.no_memory, q.is_abstention
       FROM retrievals r JOIN questions q ON q.run_id = r.run_id AND q.dataset = r.dataset AND q.question_id = r.question_id
      WHERE r.error IS NULL ${runFilter(runId, 'r')}`,
    runId,
    [],
  );
  const rows = await store.query<{ dataset: string; method: string; no_memory: boolean; is_abstention: boolean }>(
    q.sql,
    q.params,
  );
  return rows.map((r) => ({
    dataset: r.dataset,
    method: r.method,
    flagged: r.no_memory,
    isAbstention: r.is_abstention,
  }));
}

export interface BestStrategyParams {
  metric: string;
  level: string;
  k: number;
  split: number;
  seed: number;
}

/** Stores these rows in `analysis_best_strategy`, replacing earlier rows of the same metric / level / k / split / seed
 * (so analyses at several levels or metrics coexist); one transaction. */
export async function storeBestStrategy(
  store: ResultStore,
  rows: readonly BestStrategyRow[],
  p: BestStrategyParams,
): Promise<void> {
  await store.query(`BEGIN TRANSACTION`);
  try {
    await store.query(`CREATE TABLE IF NOT EXISTS analysis_best_strategy (
      dataset VARCHAR NOT NULL, adapt_type VARCHAR NOT NULL, series VARCHAR NOT NULL, kind VARCHAR NOT NULL, chosen VARCHAR,
      selection_mean DOUBLE, n_selection INTEGER NOT NULL, report_mean DOUBLE, n_report INTEGER NOT NULL,
      metric VARCHAR NOT NULL, level VARCHAR NOT NULL, k INTEGER NOT NULL, split DOUBLE NOT NULL, seed BIGINT NOT NULL, created_at VARCHAR NOT NULL)`);
    await store.query(
      `DELETE FROM analysis_best_strategy WHERE metric = $1 AND level = $2 AND k = $3 AND split = $4 AND seed = $5`,
      [p.metric, p.level, p.k, p.split, p.seed],
    );
    const now = new Date().toISOString();
    for (const r of rows) {
      await store.query(
        `INSERT INTO analysis_best_strategy VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [
          r.dataset,
          r.adaptType,
          r.series,
          r.kind,
          r.chosen,
          r.selectionMean,
          r.nSelection,
          r.reportMean,
          r.nReport,
          p.metric,
          p.level,
          p.k,
          p.split,
          p.seed,
          now,
        ],
      );
    }
    await store.query(`COMMIT`);
  } catch (err) {
    await store.query(`ROLLBACK`);
    throw err;
  }
}

/** Replaces `analysis_abstention` with these rows (one transaction). */
export async function storeAbstention(store: ResultStore, rows: readonly AbstentionScore[]): Promise<void> {
  await store.query(`BEGIN TRANSACTION`);
  try {
    await store.query(`CREATE OR REPLACE TABLE analysis_abstention (
      dataset VARCHAR NOT NULL, method VARCHAR NOT NULL, n INTEGER NOT NULL, n_flagged INTEGER NOT NULL, n_abstention INTEGER NOT NULL,
      true_positives INTEGER NOT NULL, precision DOUBLE, recall DOUBLE, f1 DOUBLE, created_at VARCHAR NOT NULL)`);
    const now = new Date().toISOString();
    for (const r of rows) {
      await store.query(`INSERT INTO analysis_abstention VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
        r.dataset,
        r.method,
        r.n,
        r.nFlagged,
        r.nAbstention,
        r.truePositives,
        r.precision,
        r.recall,
        r.f1,
        now,
      ]);
    }
    await store.query(`COMMIT`);
  } catch (err) {
    await store.query(`ROLLBACK`);
    throw err;
  }
}
