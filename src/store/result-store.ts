/**
 * The ResultStore over one DuckDB connection. Every operation goes through a SerialQueue, so concurrent callers
 * never interleave statements or transactions; a question's rows are written in one BEGIN … COMMIT (ROLLBACK on
 * any error), which is what lets a killed run resume without half-written questions (DESIGN.md §3).
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { InputError, errorMessage } from '../core/errors.ts';
import { TableAppenders } from './appenders.ts';
import { readRows } from './read-rows.ts';
import { answerCells, llmCallCells, questionCells, retrievalCells, scoreCells } from './row-cells.ts';
import { SerialQueue } from './serial-queue.ts';
import { completedKey, type QueryParam, type QuestionBatch, type ResultStore, type RunRecord } from './types.ts';
import { validateBatch } from './validate-batch.ts';

const UPSERT_RUN = `INSERT INTO runs VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
  ON CONFLICT (run_id) DO UPDATE SET ended_at = excluded.ended_at, status = excluded.status`;

export class ResultStoreImpl implements ResultStore {
  private readonly queue = new SerialQueue();
  private readonly appenders: TableAppenders;
  private closed = false;
  /** Questions whose gold row is committed, per run, loaded from the file on a run's first write. Only this process
   * writes the file (DuckDB holds a write lock), so the set stays exact; it spares a statement per question. */
  private readonly goldWritten = new Map<string, Set<string>>();

  constructor(
    readonly path: string,
    readonly readOnly: boolean,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {
    this.appenders = new TableAppenders(connection);
  }

  upsertRun(run: RunRecord): Promise<void> {
    this.assertWritable('upsertRun');
    return this.queue.run(async () => {
      await this.connection.run(UPSERT_RUN, [
        run.runId, run.name, run.configJson, run.configHash, run.gitCommit, run.gitDirty,
        JSON.stringify(run.packageVersions), JSON.stringify(run.datasetHashes), run.seed, run.startedAt,
        run.endedAt ?? null, run.status,
      ]);
    });
  }

  async completedKeys(runId: string): Promise<Set<string>> {
    const rows = await this.query<{ dataset: string; question_id: string; method: string }>(
      'SELECT dataset, question_id, method FROM retrievals WHERE run_id = $1',
      [runId],
    );
    return new Set(rows.map((r) => completedKey(r.dataset, r.question_id, r.method)));
  }

  writeQuestion(batch: QuestionBatch): Promise<void> {
    this.assertWritable('writeQuestion');
    validateBatch(batch);
    return this.queue.run(() => this.writeInTransaction(batch));
  }

  query<T = Record<string, unknown>>(sql: string, params: readonly QueryParam[] = []): Promise<T[]> {
    if (this.closed) return Promise.reject(new Error(`results store ${this.path} is closed`));
    return this.queue.run(() => readRows<T>(this.connection, sql, params));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.idle();
    this.appenders.closeAll();
    this.connection.closeSync();
    this.instance.closeSync();
  }

  private async writeInTransaction(batch: QuestionBatch): Promise<void> {
    const gold = await this.goldKeys(batch.runId);
    const key = completedKey(batch.question.dataset, batch.question.questionId, '');
    await this.connection.run('BEGIN TRANSACTION');
    try {
      // Gold is identical for every method of a question, so it is written once per run and question.
      if (!gold.has(key)) await this.appenders.append(questionCells, batch.runId, [batch.question]);
      await this.writeRows(batch);
      await this.connection.run('COMMIT');
      gold.add(key);
    } catch (err) {
      this.appenders.clearAll();
      await this.connection.run('ROLLBACK');
      const q = batch.question;
      throw new Error(`writing run ${batch.runId}, question ${q.dataset}/${q.questionId}: ${errorMessage(err)}`, {
        cause: err,
      });
    }
  }

  private async writeRows(batch: QuestionBatch): Promise<void> {
    await this.appenders.append(retrievalCells, batch.runId, batch.retrievals);
    await this.appenders.append(scoreCells, batch.runId, batch.scores);
    await this.appenders.append(answerCells, batch.runId, batch.answers ?? []);
    await this.appenders.append(llmCallCells, batch.runId, batch.llmCalls ?? []);
  }

  private async goldKeys(runId: string): Promise<Set<string>> {
    let keys = this.goldWritten.get(runId);
    if (!keys) {
      const rows = await readRows<{ dataset: string; question_id: string }>(
        this.connection, 'SELECT dataset, question_id FROM questions WHERE run_id = $1', [runId]);
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
