// Schema version 4 on a real DuckDB file: a version-3 file is migrated on open (its questions kept, the superseded
// evidence columns NULL = not recorded), and a question's superseded ids round-trip, Chinese ids included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';
import { V4_TO_V3_SQL } from './testing/downgrade.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-schema-v4-'));
  file = join(dir, 'results.duckdb');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('schema version 4', () => {
  it('migrates a version-3 file on open: questions kept, superseded ids NULL; new questions write theirs', async () => {
    const s1 = await openResultStore(file);
    await s1.writeQuestion(fakeBatch('r1', 0, ['bm25']));
    await s1.close();
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run(`${V4_TO_V3_SQL} UPDATE meta SET value = '3' WHERE key = 'schema_version';`);
    c.closeSync();
    db.closeSync();
    const s2 = await openResultStore(file);
    const b = fakeBatch('r1', 1, ['bm25']);
    b.question = { ...b.question, supersededSessionIds: ['会话1'], supersededTurnIds: ['会话1#2', '会话1#3'] };
    await s2.writeQuestion(b);
    expect(
      await s2.query(
        "SELECT question_id, superseded_session_ids s, superseded_turn_ids t, (SELECT value FROM meta WHERE key = 'schema_version') v FROM questions ORDER BY question_id",
      ),
    ).toEqual([
      { question_id: 'q0', s: null, t: null, v: '6' },
      { question_id: 'q1', s: ['会话1'], t: ['会话1#2', '会话1#3'], v: '6' },
    ]);
    // The view still reads the migrated table.
    expect((await s2.query('SELECT count(*)::INT n FROM scores_by_type')).length).toBe(1);
    await s2.close();
  });
});
