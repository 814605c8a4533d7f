// Schema version 3 on a real DuckDB file: a version-2 file is migrated on open (rows kept; llm_calls gains `batch` and
// `cached_tokens` with defaults; the cutoff_answers table), and the new columns and table round-trip.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';
import { V3_TO_V2_SQL } from './testing/downgrade.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-schema-v3-'));
  file = join(dir, 'results.duckdb');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const call = {
  dataset: 'fake',
  questionId: 'q0',
  method: 'bm25',
  stage: 'reader',
  model: 'm',
  promptTokens: 2000,
  completionTokens: 10,
  latencyMs: 5,
  cached: false,
  costUsd: 0.001,
};

/** Turns a fresh file back into the version-2 layout (no v3 columns or table) holding one llm_calls row. */
async function writeV2File(path: string): Promise<void> {
  const s = await openResultStore(path);
  await s.writeCalls('r1', [call]);
  await s.close();
  const db = await DuckDBInstance.create(path);
  const c = await db.connect();
  await c.run(`${V3_TO_V2_SQL} UPDATE meta SET value = '2' WHERE key = 'schema_version';`);
  c.closeSync();
  db.closeSync();
}

describe('schema version 3', () => {
  it('migrates a version-2 file on open: old calls get batch = false, cached_tokens = 0; new ones keep theirs', async () => {
    await writeV2File(file);
    const s = await openResultStore(file);
    await s.writeCalls('r1', [{ ...call, questionId: 'q1', batch: true, cachedTokens: 1024 }]);
    expect(
      await s.query(
        "SELECT question_id, batch, cached_tokens, (SELECT value FROM meta WHERE key = 'schema_version') AS v FROM llm_calls ORDER BY question_id",
      ),
    ).toEqual([
      { question_id: 'q0', batch: false, cached_tokens: 0, v: '6' },
      { question_id: 'q1', batch: true, cached_tokens: 1024, v: '6' },
    ]);
    await s.close();
  });

  it('writes cutoff answers with the question, one row per cutoff, and a retry replaces them', async () => {
    const s = await openResultStore(file);
    const verdict = { correct: [true], raw: ['yes'] };
    const batch = fakeBatch('r1', 0, ['bm25']);
    await s.writeQuestion({
      ...batch,
      cutoffAnswers: [5, 10].map((cutoff) => ({
        dataset: 'fake',
        questionId: 'q0',
        method: 'bm25',
        cutoff,
        answer: `答案 ${cutoff}`,
        judgeVerdicts: [verdict],
        contextTokens: cutoff * 100,
        error: null,
      })),
    });
    expect(
      await s.query('SELECT cutoff, answer, judge_verdicts, context_tokens FROM cutoff_answers ORDER BY cutoff'),
    ).toEqual([
      { cutoff: 5, answer: '答案 5', judge_verdicts: JSON.stringify([verdict]), context_tokens: 500 },
      { cutoff: 10, answer: '答案 10', judge_verdicts: JSON.stringify([verdict]), context_tokens: 1000 },
    ]);
    await s.writeQuestion({
      ...batch,
      replaces: ['bm25'],
      cutoffAnswers: [
        {
          dataset: 'fake',
          questionId: 'q0',
          method: 'bm25',
          cutoff: 5,
          answer: 'new',
          judgeVerdicts: [],
          contextTokens: 1,
          error: null,
        },
      ],
    });
    expect(await s.query('SELECT cutoff, answer FROM cutoff_answers')).toEqual([{ cutoff: 5, answer: 'new' }]);
    await s.close();
  });
});
