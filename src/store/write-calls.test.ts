// Paid calls and the checkpoint that says they are written commit in one transaction (a folded Batch API batch): on
// a real DuckDB file both land together, and when the rows cannot be written neither does the mark — so a resumed
// fold can never find the mark without the rows, or the rows without the mark, and write them twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openResultStore } from './open-store.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-write-calls-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const call = {
  dataset: 'locomo',
  questionId: 'conv-26:q0',
  method: 'adaptmr',
  stage: 'reader',
  model: 'gpt-4o-mini',
  promptTokens: 1200,
  completionTokens: 12,
  latencyMs: 900_000,
  cached: false,
  costUsd: 0.0001,
  batch: true,
};
const mark = { scope: 'batch', key: 'batch:sub-1', value: '{"rowsWritten":true,"note":"已写入"}' };

describe('writeCalls with a checkpoint', () => {
  it('commits the rows and the checkpoint together', async () => {
    const s = await openResultStore(join(dir, 'r.duckdb'));
    await s.writeCalls('r1', [call, { ...call, questionId: 'conv-26:q1' }], mark);
    expect(await s.query('SELECT count(*)::INTEGER AS n FROM llm_calls')).toEqual([{ n: 2 }]);
    expect(await s.getCheckpoint('r1', mark.scope, mark.key)).toBe(mark.value);
    await s.close();
  });

  it('writes neither when a row cannot be written', async () => {
    const s = await openResultStore(join(dir, 'r.duckdb'));
    const bad = { ...call, promptTokens: 'many' as unknown as number };
    await expect(s.writeCalls('r1', [call, bad], mark)).rejects.toThrow(/recording 2 paid call\(s\) of run r1/);
    expect(await s.query('SELECT count(*)::INTEGER AS n FROM llm_calls')).toEqual([{ n: 0 }]);
    expect(await s.getCheckpoint('r1', mark.scope, mark.key)).toBeUndefined();
    await s.close();
  });

  it('writes no row when the checkpoint cannot be written', async () => {
    const s = await openResultStore(join(dir, 'r.duckdb'));
    const noValue = { ...mark, value: null as unknown as string };
    await expect(s.writeCalls('r1', [call], noValue)).rejects.toThrow(/recording 1 paid call\(s\) of run r1/);
    expect(await s.query('SELECT count(*)::INTEGER AS n FROM llm_calls')).toEqual([{ n: 0 }]);
    await s.close();
  });
});
