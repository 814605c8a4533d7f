/**
 * The ResultStore over one DuckDB connection. Every operation goes through a SerialQueue, so concurrent callers
 * never interleave statements or transactions; a question's rows are written in one BEGIN … COMMIT (ROLLBACK on
 * any error), which is what lets a killed run resume without half-written questions (docs/design.md §3).
 *
 * Group commit: a COMMIT costs a WAL sync (tens of ms), far more than a question's rows, so the questions that
 * arrive while one commit is under way are written together in the next transaction. Each question is still whole
 * or absent after a crash; a killed run loses at most the questions of the transaction in flight. If a group fails,
 * each of its questions is retried in its own transaction so an error reaches only the question that caused it.
 * (The grouping is group-commit.ts, shared with the row spool; `importSpool` folds a spool in: spool.ts.)
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { InputError, damagedFileMessage, errorMessage } from '../core/errors.ts';
import { redactSecrets } from '../core/secrets.ts';
import { TableAppenders } from './appenders.ts';
import { appendClassifierEval } from './classifier-eval.ts';
import type { EvalResult } from './classifier-eval-types.ts';
import { readRows } from './read-rows.ts';
import {
  answerCells,
  answerVerdictCells,
  comparisonCells,
  cutoffAnswerCells,
  goldVersionCells,
  judgeAgreementCells,
  judgeComparisonCells,
  llmCallCells,
  probeAnswerCells,
  questionCells,
  retrievalCells,
  scoreCells,
  scoreCiCells,
  verdictCells,
  findingCells,
} from './row-cells.ts';
import { GroupCommit } from './group-commit.ts';
import { SerialQueue } from './serial-queue.ts';
import type { SpoolContents } from './spool.ts';
import {
  completedKey,
  type JudgingRows,
  type LlmCallRow,
  type MethodRow,
  type QueryParam,
  type QuestionBatch,
  type ResultStore,
  type RunRecord,
  type StatsTables,
} from './types.ts';
import { redactBatch } from './redact-batch.ts';
import { validateBatch } from './validate-batch.ts';

const UPSERT_RUN = `INSERT INTO runs VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
  ON CONFLICT (run_id) DO UPDATE SET ended_at = excluded.ended_at, status = excluded.status`;

const UPSERT_METHOD = `INSERT OR REPLACE INTO methods VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
const UPSERT_CHECKPOINT = `INSERT OR REPLACE INTO checkpoints VALUES ($1, $2, $3, $4)`;

/** Statement parameters of the run, method and checkpoint rows (secrets redacted), for their upserts and a fold. */
function runParams(run: RunRecord): QueryParam[] {
  return [
    run.runId,
    run.name,
    redactSecrets(run.configJson),
    run.configHash,
    run.gitCommit,
    run.gitDirty,
    JSON.stringify(run.packageVersions),
    JSON.stringify(run.datasetHashes),
    run.seed,
    run.startedAt,
    run.endedAt ?? null,
    run.status,
  ];
}

function methodParams(runId: string, m: MethodRow): QueryParam[] {
  return [
    runId,
    m.method,
    m.kind,
    m.granularity,
    m.k,
    m.output,
    m.upperBound,
    m.degraded,
    redactSecrets(JSON.stringify(m.capabilities)),
  ];
}

function checkpointParams(runId: string, method: string, key: string, value: string): QueryParam[] {
  return [runId, method, redactSecrets(key), redactSecrets(value)];
}

/**
 * A (question, method) whose result is an error: the method/retrieval failed, or its QA answer (reader or judge) did.
 * `r` is the retrievals row; the answer row, when there is one, has the same key.
 */
const FAILED_ROW = `(r.error IS NOT NULL OR EXISTS (SELECT 1 FROM answers a WHERE a.run_id = r.run_id AND a.dataset = r.dataset
  AND a.question_id = r.question_id AND a.method = r.method AND a.error IS NOT NULL))`;

/** A gold row appended by a transaction not yet committed, and the run's set it joins on COMMIT. */
interface GoldAdded {
  gold: Set<string>;
  key: string;
}

/** Questions per transaction at most, so one commit's memory stays bounded. */
const MAX_GROUP = 64;
/**
 * How long, by default, a first queued question waits for others before its transaction starts. A transaction costs
 * ~6–20 ms whatever its size (appender flush into indexed tables, WAL commit), so one per question caps a run at
 * ~100 questions/s; a short wait lets questions computed meanwhile share it. The runner opens its results file with
 * a longer wait (RUN_LINGER_MS in src/run/session/results-target.ts) and calls `commitQueued` once its producers are done.
 */
const LINGER_MS = 25;

export class ResultStoreImpl implements ResultStore {
  private readonly queue = new SerialQueue();
  private readonly appenders: TableAppenders;
  private closed = false;
  /** Questions waiting for the next group commit. */
  private readonly groups: GroupCommit<QuestionBatch>;
  /** Questions whose gold row is committed, per run, loaded from the file on a run's first write. Only this process
   * writes the file (DuckDB holds a write lock), so the set stays exact; it spares a statement per question. */
  private readonly goldWritten = new Map<string, Set<string>>();

  constructor(
    readonly path: string,
    readonly readOnly: boolean,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    lingerMs = LINGER_MS,
  ) {
    this.appenders = new TableAppenders(connection);
    this.groups = new GroupCommit(this.queue, (batches) => this.writeGroup(batches), lingerMs, MAX_GROUP);
  }

  upsertRun(run: RunRecord): Promise<void> {
    this.assertWritable('upsertRun');
    return this.queue.run(async () => {
      await this.connection.run(UPSERT_RUN, runParams(run));
    });
  }

  upsertMethods(runId: string, methods: readonly MethodRow[]): Promise<void> {
    this.assertWritable('upsertMethods');
    return this.queue.run(async () => {
      await this.connection.run('BEGIN TRANSACTION');
      try {
        for (const m of methods) await this.connection.run(UPSERT_METHOD, methodParams(runId, m));
        await this.connection.run('COMMIT');
      } catch (err) {
        await this.connection.run('ROLLBACK');
        throw err;
      }
    });
  }

  async getCheckpoint(runId: string, method: string, key: string): Promise<string | undefined> {
    const rows = await this.query<{ value: string }>(
      'SELECT value FROM checkpoints WHERE run_id = $1 AND method = $2 AND key = $3',
      [runId, method, key],
    );
    return rows[0]?.value;
  }

  putCheckpoint(runId: string, method: string, key: string, value: string): Promise<void> {
    this.assertWritable('putCheckpoint');
    return this.queue.run(async () => {
      await this.connection.run(UPSERT_CHECKPOINT, checkpointParams(runId, method, key, value));
    });
  }

  writeClassifierEvals(results: readonly EvalResult[]): Promise<void> {
    this.assertWritable('writeClassifierEvals');
    return this.queue.run(async () => {
      for (const r of results) {
        await this.connection.run('BEGIN TRANSACTION');
        try {
          await appendClassifierEval(this.connection, r);
          await this.connection.run('COMMIT');
        } catch (err) {
          await this.connection.run('ROLLBACK');
          throw err;
        }
      }
    });
  }

  async completedKeys(runId: string, opts: { retryErrors?: boolean } = {}): Promise<Set<string>> {
    // With retryErrors, a (question, method) whose retrieval or answer row holds an error is not complete: the resume
    // computes it again and `writeQuestion` replaces its rows (batch.replaces).
    const failed = opts.retryErrors === true ? `AND NOT (${FAILED_ROW})` : '';
    const rows = await this.query<{ dataset: string; question_id: string; method: string }>(
      `SELECT dataset, question_id, method FROM retrievals r WHERE run_id = $1 ${failed}`,
      [runId],
    );
    return new Set(rows.map((r) => completedKey(r.dataset, r.question_id, r.method)));
  }

  async failedKeys(runId: string): Promise<Set<string>> {
    const rows = await this.query<{ dataset: string; question_id: string; method: string }>(
      `SELECT dataset, question_id, method FROM retrievals r WHERE run_id = $1 AND ${FAILED_ROW}`,
      [runId],
    );
    return new Set(rows.map((r) => completedKey(r.dataset, r.question_id, r.method)));
  }

  writeQuestion(batch: QuestionBatch): Promise<void> {
    this.assertWritable('writeQuestion');
    validateBatch(batch);
    return this.groups.add(redactBatch(batch));
  }

  commitQueued(): void {
    this.groups.flushNow();
  }

  /**
   * A group of questions in one transaction; if it fails, each question again in its own, so an error reaches only
   * the question that caused it.
   */
  private async writeGroup(batches: readonly QuestionBatch[]): Promise<unknown[]> {
    try {
      await this.writeInTransaction(batches);
      return batches.map(() => undefined);
    } catch (err) {
      if (batches.length === 1) return [err];
      const outcomes: unknown[] = [];
      for (const b of batches) {
        try {
          await this.writeInTransaction([b]);
          outcomes.push(undefined);
        } catch (single) {
          outcomes.push(single);
        }
      }
      return outcomes;
    }
  }

  /**
   * Records paid calls in one transaction. `checkpoint`, when given, commits with them: a caller that marks "these
   * rows are written" (a folded batch) can never be killed between the rows and the mark and write them twice.
   */
  writeCalls(
    runId: string,
    calls: readonly LlmCallRow[],
    checkpoint?: { scope: string; key: string; value: string },
  ): Promise<void> {
    this.assertWritable('writeCalls');
    const safe = calls.map((c) => (c.error === undefined ? c : { ...c, error: redactSecrets(c.error) }));
    return this.queue.run(async () => {
      await this.connection.run('BEGIN TRANSACTION');
      try {
        await this.appenders.append(llmCallCells, runId, safe);
        this.appenders.flushAll();
        if (checkpoint) {
          await this.connection.run(
            UPSERT_CHECKPOINT,
            checkpointParams(runId, checkpoint.scope, checkpoint.key, checkpoint.value),
          );
        }
        await this.connection.run('COMMIT');
      } catch (err) {
        this.appenders.clearAll();
        await this.connection.run('ROLLBACK');
        throw new Error(
          `recording ${calls.length} paid call(s) of run ${runId} in ${this.path}: ${errorMessage(err)}`,
          { cause: err },
        );
      }
    });
  }

  writeJudging(runId: string, rows: JudgingRows): Promise<void> {
    this.assertWritable('writeJudging');
    const safe = redactBatch({
      runId,
      question: {} as QuestionBatch['question'],
      retrievals: [],
      scores: [],
      verdicts: [...rows.verdicts],
      llmCalls: [...(rows.llmCalls ?? [])],
    });
    const probes = (rows.probeAnswers ?? []).map((p) => ({ ...p, answer: redactSecrets(p.answer) }));
    return this.queue.run(async () => {
      await this.connection.run('BEGIN TRANSACTION');
      try {
        await this.appenders.append(probeAnswerCells, runId, probes);
        await this.appenders.append(answerVerdictCells, runId, safe.verdicts ?? []);
        await this.appenders.append(llmCallCells, runId, safe.llmCalls ?? []);
        this.appenders.flushAll();
        await this.connection.run('COMMIT');
      } catch (err) {
        this.appenders.clearAll();
        await this.connection.run('ROLLBACK');
        throw new Error(
          `writing ${rows.verdicts.length} verdict(s) of run ${runId} to ${this.path}: ${errorMessage(err)}`,
          { cause: err },
        );
      }
    });
  }

  query<T = Record<string, unknown>>(sql: string, params: readonly QueryParam[] = []): Promise<T[]> {
    if (this.closed) return Promise.reject(new Error(`results store ${this.path} is closed`));
    // A block whose checksum fails (a bit flipped on disk) surfaces when it is read: one line naming this file.
    return this.queue
      .run(() => readRows<T>(this.connection, sql, params))
      .catch((err: unknown) => {
        const damaged = damagedFileMessage(err, this.path);
        throw damaged === undefined ? err : new InputError(damaged);
      });
  }

  replaceStats(stats: StatsTables): Promise<void> {
    this.assertWritable('replaceStats');
    return this.queue.run(async () => {
      await this.connection.run('BEGIN TRANSACTION');
      try {
        await this.connection.run(
          'DELETE FROM score_cis; DELETE FROM comparisons; DELETE FROM judge_agreement; DELETE FROM judge_comparisons; DELETE FROM verdicts; DELETE FROM findings;',
        );
        await this.appenders.append(scoreCiCells, '', stats.scoreCis);
        await this.appenders.append(comparisonCells, '', stats.comparisons);
        await this.appenders.append(judgeAgreementCells, '', stats.judgeAgreement ?? []);
        await this.appenders.append(judgeComparisonCells, '', stats.judgeComparisons ?? []);
        await this.appenders.append(verdictCells, '', stats.verdicts);
        await this.appenders.append(findingCells, '', stats.findings ?? []);
        this.appenders.flushAll();
        await this.connection.run(`INSERT OR REPLACE INTO meta VALUES ('stats_fingerprint', $1)`, [stats.fingerprint]);
        await this.connection.run('COMMIT');
      } catch (err) {
        this.appenders.clearAll();
        await this.connection.run('ROLLBACK');
        throw new Error(`writing statistics to ${this.path}: ${errorMessage(err)}`, { cause: err });
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.groups.flushNow();
    await this.queue.idle();
    this.appenders.closeAll();
    this.connection.closeSync();
    this.instance.closeSync();
  }

  /**
   * Folds a row spool (spool.ts) into the file: the run, its methods and checkpoints and every spooled question, in
   * one transaction that also records the spool's id in `meta`, so a spool folded but not yet deleted (a kill in
   * between) is recognised and not folded twice. Returns the questions written (0 when it was folded already).
   */
  importSpool(spool: SpoolContents): Promise<number> {
    this.assertWritable('importSpool');
    const header = spool.header;
    if (!header) return Promise.resolve(0);
    return this.queue.run(async () => {
      const marker = `spool:${header.id}`;
      const seen = await readRows(this.connection, 'SELECT key FROM meta WHERE key = $1', [marker]);
      if (seen.length > 0) return 0;
      const runId = header.run.runId;
      try {
        return await this.appendInTransaction(
          spool.batches(),
          async () => {
            await this.connection.run(UPSERT_RUN, runParams(header.run));
            for (const m of header.methods) await this.connection.run(UPSERT_METHOD, methodParams(runId, m));
            for (const c of header.checkpoints)
              await this.connection.run(UPSERT_CHECKPOINT, checkpointParams(runId, c.method, c.key, c.value));
          },
          async () => {
            await this.connection.run('INSERT INTO meta VALUES ($1, $2)', [marker, new Date().toISOString()]);
          },
        );
      } catch (err) {
        throw new Error(`folding the row spool of run ${runId} into ${this.path}: ${errorMessage(err)}`, {
          cause: err,
        });
      }
    });
  }

  private async writeInTransaction(batches: readonly QuestionBatch[]): Promise<void> {
    try {
      await this.appendInTransaction(batches);
    } catch (err) {
      const where = batches.map((b) => `${b.question.dataset}/${b.question.questionId}`).join(', ');
      throw new Error(`writing run ${batches[0]?.runId}, question ${where}: ${errorMessage(err)}`, { cause: err });
    }
  }

  /**
   * Questions' rows in one transaction, with the statements of `before` and `after` (a fold's run rows and marker);
   * rolled back on any error. Returns the questions written.
   */
  private async appendInTransaction(
    batches: Iterable<QuestionBatch>,
    before?: () => Promise<void>,
    after?: () => Promise<void>,
  ): Promise<number> {
    const added: GoldAdded[] = [];
    let questions = 0;
    await this.connection.run('BEGIN TRANSACTION');
    try {
      await before?.();
      for (const batch of batches) {
        await this.appendBatch(batch, added);
        questions++;
      }
      this.appenders.flushAll();
      await after?.();
      await this.connection.run('COMMIT');
    } catch (err) {
      this.appenders.clearAll();
      await this.connection.run('ROLLBACK');
      throw err;
    }
    for (const a of added) a.gold.add(a.key);
    return questions;
  }

  /** One question's rows, inside the caller's transaction; `added` collects the gold rows it appended. */
  private async appendBatch(batch: QuestionBatch, added: GoldAdded[]): Promise<void> {
    const gold = await this.goldKeys(batch.runId);
    const key = completedKey(batch.question.dataset, batch.question.questionId, '');
    // Gold is identical for every method of a question, so it is written once per run and question.
    if (!gold.has(key) && !added.some((a) => a.gold === gold && a.key === key)) {
      await this.appenders.append(questionCells, batch.runId, [batch.question]);
      await this.appenders.append(goldVersionCells, batch.runId, batch.goldVersions ?? []);
      added.push({ gold, key });
    }
    await this.writeRows(batch);
  }

  private async writeRows(batch: QuestionBatch): Promise<void> {
    // A retried (question, method): its earlier error rows go in the same transaction the new rows arrive in, so the
    // file holds one or the other, never both. llm_calls are kept: they record calls that were made (and paid).
    for (const method of batch.replaces ?? []) {
      const key = [batch.runId, batch.question.dataset, batch.question.questionId, method];
      for (const table of ['retrievals', 'scores', 'answers', 'cutoff_answers', 'answer_verdicts']) {
        await this.connection.run(
          `DELETE FROM ${table} WHERE run_id = $1 AND dataset = $2 AND question_id = $3 AND method = $4`,
          key,
        );
      }
    }
    await this.appenders.append(retrievalCells, batch.runId, batch.retrievals);
    await this.appenders.append(scoreCells, batch.runId, batch.scores);
    await this.appenders.append(answerCells, batch.runId, batch.answers ?? []);
    await this.appenders.append(answerVerdictCells, batch.runId, batch.verdicts ?? []);
    await this.appenders.append(cutoffAnswerCells, batch.runId, batch.cutoffAnswers ?? []);
    await this.appenders.append(llmCallCells, batch.runId, batch.llmCalls ?? []);
  }

  private async goldKeys(runId: string): Promise<Set<string>> {
    let keys = this.goldWritten.get(runId);
    if (!keys) {
      const rows = await readRows<{ dataset: string; question_id: string }>(
        this.connection,
        'SELECT dataset, question_id FROM questions WHERE run_id = $1',
        [runId],
      );
      keys = new Set(rows.map((r) => completedKey(r.dataset, r.question_id, '')));
      this.goldWritten.set(runId, keys);
    }
    return keys;
  }

  private assertWritable(op: string): void {
    if (this.readOnly) throw new InputError(`${op} on a results file opened read-only`, this.path);
    if (this.closed) throw new Error(`results store ${this.path} is closed`);
  }
}
