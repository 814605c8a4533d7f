// Schema version 6 on a real DuckDB file: a version-5 file is migrated on open (its questions, superseded ids and haystack sizes
// kept, judge_evidence NULL = not recorded), and a question's judge evidence (LoCoMo-Plus's cue) round-trips, Chinese
// text included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';
import { V6_TO_V5_SQL } from './testing/downgrade.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-schema-v6-'));
  file = join(dir, 'results.duckdb');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('schema version 6', () => {
  it('migrates a version-5 file on open: questions kept, judge_evidence NULL; new questions write theirs', async () => {
    const s1 = await openResultStore(file);
    const b0 = fakeBatch('r1', 0, ['bm25']);
    b0.question = { ...b0.question, supersededSessionIds: ['s9'], supersededTurnIds: ['s9#1'], haystackTurns: 12 };
    await s1.writeQuestion(b0);
    await s1.close();
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run(`${V6_TO_V5_SQL} UPDATE meta SET value = '5' WHERE key = 'schema_version';`);
    c.closeSync();
    db.closeSync();
    const s2 = await openResultStore(file);
    const b = fakeBatch('r1', 1, ['bm25']);
    b.question = { ...b.question, judgeEvidence: 'A: 我上周把猫送去寄养了\nB: 希望它过得好' };
    await s2.writeQuestion(b);
    expect(
      await s2.query(
        "SELECT question_id, superseded_turn_ids t, haystack_turns ht, judge_evidence e, (SELECT value FROM meta WHERE key = 'schema_version') v FROM questions ORDER BY question_id",
      ),
    ).toEqual([
      { question_id: 'q0', t: ['s9#1'], ht: 12, e: null, v: '6' },
      { question_id: 'q1', t: [], ht: null, e: 'A: 我上周把猫送去寄养了\nB: 希望它过得好', v: '6' },
    ]);
    expect((await s2.query('SELECT count(*)::INT n FROM scores_by_type')).length).toBe(1);
    await s2.close();
  });
});
