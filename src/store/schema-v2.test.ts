// Schema version 2 on a real DuckDB file: a version-1 file is migrated on open (rows kept, retrievals.k added),
// methods and their capabilities are recorded per run, and checkpoints survive a reopen.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { V3_TO_V2_SQL } from './testing/downgrade.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-schema-v2-'));
  file = join(dir, 'results.duckdb');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What version 3 added, undone (the version-2 layout). */
const V3_TO_V2 = V3_TO_V2_SQL;

/** Turns a fresh file back into the version-1 layout (no methods/checkpoints tables, no retrievals.k). */
async function downgradeToV1(path: string): Promise<void> {
  const db = await DuckDBInstance.create(path);
  const c = await db.connect();
  await c.run(
    `${V3_TO_V2} DROP TABLE methods; DROP TABLE checkpoints; ALTER TABLE retrievals DROP COLUMN k; UPDATE meta SET value = '1' WHERE key = 'schema_version';`,
  );
  c.closeSync();
  db.closeSync();
}

describe('schema version 3', () => {
  it('migrates a version-2 file on open: its rows kept, the judge-panel tables added, answer_tokens NULL on old answers', async () => {
    const s1 = await openResultStore(file);
    await s1.writeQuestion({
      ...fakeBatch('r1', 0, ['bm25']),
      answers: [
        {
          dataset: 'fake',
          questionId: 'q0',
          method: 'bm25',
          answer: 'A',
          judgeVerdicts: [{ correct: [true], raw: ['yes'] }],
          contextTokens: 3,
          error: null,
        },
      ],
    });
    await s1.close();
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run(
      `${V3_TO_V2} DROP TABLE judge_agreement; DROP TABLE judge_comparisons; UPDATE meta SET value = '2' WHERE key = 'schema_version';`,
    );
    c.closeSync();
    db.closeSync();
    const s2 = await openResultStore(file);
    expect(await s2.query("SELECT value FROM meta WHERE key = 'schema_version'")).toEqual([{ value: '6' }]);
    expect(await s2.query('SELECT answer, judge_verdicts, answer_tokens FROM answers')).toEqual([
      { answer: 'A', judge_verdicts: '[{"correct":[true],"raw":["yes"]}]', answer_tokens: null },
    ]);
    expect(
      await s2.query(
        'SELECT (SELECT count(*) FROM answer_verdicts)::INT v, (SELECT count(*) FROM judge_agreement)::INT a',
      ),
    ).toEqual([{ v: 0, a: 0 }]);
    await s2.close();
  });

  it('refuses a version-2 file read-only (a writable open migrates it), naming the file', async () => {
    await (await openResultStore(file)).close();
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run(`${V3_TO_V2} UPDATE meta SET value = '2' WHERE key = 'schema_version';`);
    c.closeSync();
    db.closeSync();
    await expect(openResultStore(file, { readOnly: true })).rejects.toThrow(
      /results\.duckdb: results file has schema version 2, this harness reads version 6/,
    );
  });
});

describe('schema version 2', () => {
  it('migrates a version-1 file on open, keeping its rows', async () => {
    const s1 = await openResultStore(file);
    await s1.close();
    await downgradeToV1(file);
    const s2 = await openResultStore(file);
    await s2.writeQuestion({
      ...fakeBatch('r1', 0, ['bm25']),
      retrievals: fakeBatch('r1', 0, ['bm25']).retrievals.map((r) => ({ ...r, k: 50 })),
    });
    const rows = await s2.query<{ k: number; v: string }>(
      "SELECT r.k, m.value AS v FROM retrievals r, meta m WHERE m.key = 'schema_version'",
    );
    expect(rows).toEqual([{ k: 50, v: String(SCHEMA_VERSION) }]);
    await s2.close();
  });

  it('records methods with capabilities and keeps checkpoints across a reopen', async () => {
    const s = await openResultStore(file);
    await s.upsertMethods('r1', [
      {
        method: 'mem',
        kind: 'mem0',
        granularity: 'turn',
        k: 10,
        output: 'text',
        upperBound: false,
        degraded: null,
        capabilities: { output: 'text', memorises: true },
      },
      {
        method: 'or',
        kind: 'adaptmr',
        granularity: 'session',
        k: 10,
        output: 'units',
        upperBound: true,
        degraded: 'offline',
        capabilities: { output: 'units', oracleType: true },
      },
    ]);
    await s.upsertMethods('r1', [
      {
        method: 'mem',
        kind: 'mem0',
        granularity: 'turn',
        k: 20,
        output: 'text',
        upperBound: false,
        degraded: null,
        capabilities: { output: 'text' },
      },
    ]);
    await s.putCheckpoint('r1', 'mem', 'ns-a/batch-0', '12');
    await s.close();
    const r = await openResultStore(file, { readOnly: true });
    expect(await r.query('SELECT method, k, output, upper_bound, degraded FROM methods ORDER BY method')).toEqual([
      { method: 'mem', k: 20, output: 'text', upper_bound: false, degraded: null },
      { method: 'or', k: 10, output: 'units', upper_bound: true, degraded: 'offline' },
    ]);
    expect(await r.getCheckpoint('r1', 'mem', 'ns-a/batch-0')).toBe('12');
    expect(await r.getCheckpoint('r1', 'mem', 'ns-a/batch-1')).toBeUndefined();
    expect(await r.getCheckpoint('r1', 'other', 'ns-a/batch-0')).toBeUndefined();
    await r.close();
  });
});
