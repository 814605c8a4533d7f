/**
 * Store write benchmark: prints questions/s and rows/s for (1) the store's real path — one transaction per question,
 * rows through DuckDB appenders — and, on the scores table alone with the same per-question transactions, (2) one
 * multi-row `INSERT … VALUES` per question and (3) one prepared INSERT per row. Usage: tsx scripts/bench-store.ts [questions]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { fakeBatch } from '../src/store/testing/fake-batch.ts';
import { openResultStore } from '../src/store/open-store.ts';
import { scoreCells } from '../src/store/row-cells.ts';
import { createSchemaSql } from '../src/store/schema.ts';
import type { QuestionBatch } from '../src/store/types.ts';

const QUESTIONS = Number(process.argv[2] ?? 300);
const METHODS = ['bm25', 'dense', 'full-context', 'adaptmr', 'adaptmr-oracle'];
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-bench-'));
const batches: QuestionBatch[] = Array.from({ length: QUESTIONS }, (_, i) => fakeBatch('bench', i, METHODS));
const rowsPer = (b: QuestionBatch): number => 1 + b.retrievals.length + b.scores.length;

function report(label: string, ms: number, rows: number): void {
  const qps = (QUESTIONS / ms) * 1000;
  console.log(
    `${label.padEnd(46)} ${qps.toFixed(0).padStart(7)} questions/s ${((rows / ms) * 1000).toFixed(0).padStart(9)} rows/s`,
  );
}

async function storePath(): Promise<void> {
  const store = await openResultStore(join(dir, 'store.duckdb'));
  const t0 = performance.now();
  for (const b of batches) await store.writeQuestion(b);
  const ms = performance.now() - t0;
  await store.close();
  report(
    'store.writeQuestion (appenders in 1 txn)',
    ms,
    batches.reduce((n, b) => n + rowsPer(b), 0),
  );
}

async function rawConnection(name: string): Promise<{ db: DuckDBInstance; c: DuckDBConnection }> {
  const db = await DuckDBInstance.create(join(dir, name));
  const c = await db.connect();
  await c.run(createSchemaSql());
  return { db, c };
}

type Flat = (string | number | boolean | null)[];
const scoreRows = (b: QuestionBatch): Flat[] => b.scores.map((s) => scoreCells.cells(b.runId, s) as Flat);

async function multiRowInsert(): Promise<void> {
  const { db, c } = await rawConnection('multi.duckdb');
  const t0 = performance.now();
  for (const b of batches) {
    const rows = scoreRows(b);
    const tuple = `(${Array(11).fill('?').join(',')})`;
    await c.run('BEGIN');
    await c.run(`INSERT INTO scores VALUES ${rows.map(() => tuple).join(',')}`, rows.flat());
    await c.run('COMMIT');
  }
  report(
    'scores only: multi-row INSERT VALUES per question',
    performance.now() - t0,
    batches.reduce((n, b) => n + b.scores.length, 0),
  );
  c.closeSync();
  db.closeSync();
}

async function preparedPerRow(): Promise<void> {
  const { db, c } = await rawConnection('prepared.duckdb');
  const stmt = await c.prepare(
    `INSERT INTO scores VALUES (${Array(11)
      .fill('$')
      .map((_, i) => `$${i + 1}`)
      .join(',')})`,
  );
  const t0 = performance.now();
  for (const b of batches) {
    await c.run('BEGIN');
    for (const row of scoreRows(b)) {
      stmt.bind(row);
      await stmt.run();
    }
    await c.run('COMMIT');
  }
  report(
    'scores only: prepared INSERT per row',
    performance.now() - t0,
    batches.reduce((n, b) => n + b.scores.length, 0),
  );
  c.closeSync();
  db.closeSync();
}

console.log(
  `${QUESTIONS} questions × ${METHODS.length} methods, ${rowsPer(batches[0] as QuestionBatch)} rows per question`,
);
try {
  await storePath();
  await multiRowInsert();
  await preparedPerRow();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
