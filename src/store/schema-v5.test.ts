// Schema version 5 on a real DuckDB file: a version-4 file is migrated on open (its questions kept, the haystack sizes
// NULL = not recorded, so their chance rate is not computable), and a question's haystack sizes round-trip.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';
import { V5_TO_V4_SQL } from './testing/downgrade.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-schema-v5-'));
  file = join(dir, 'results.duckdb');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('schema version 5', () => {
  it('migrates a version-4 file on open: questions kept, haystack sizes NULL; new questions write theirs', async () => {
    const s1 = await openResultStore(file);
    const b0 = fakeBatch('r1', 0, ['bm25']);
    b0.question = { ...b0.question, supersededSessionIds: ['会话1'], supersededTurnIds: ['会话1#2'] };
    await s1.writeQuestion(b0);
    await s1.close();
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run(`${V5_TO_V4_SQL} UPDATE meta SET value = '4' WHERE key = 'schema_version';`);
    c.closeSync();
    db.closeSync();
    const s2 = await openResultStore(file);
    const b = fakeBatch('r1', 1, ['bm25']);
    b.question = { ...b.question, haystackSessions: 40, haystackTurns: 512 };
    await s2.writeQuestion(b);
    expect(
      await s2.query(
        "SELECT question_id, superseded_turn_ids t, haystack_sessions hs, haystack_turns ht, (SELECT value FROM meta WHERE key = 'schema_version') v FROM questions ORDER BY question_id",
      ),
    ).toEqual([
      { question_id: 'q0', t: ['会话1#2'], hs: null, ht: null, v: '6' },
      { question_id: 'q1', t: [], hs: 40, ht: 512, v: '6' },
    ]);
    expect((await s2.query('SELECT count(*)::INT n FROM scores_by_type')).length).toBe(1);
    await s2.close();
  });
});
