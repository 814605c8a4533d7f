// A SIGKILLed writer must leave no half-written question: a child process (tsx) writes questions in a loop and is
// killed mid-way; the file is reopened, every question found must have all its rows, and a second writer resumes
// with only the missing questions, ending with exactly one complete set per question.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAKE_SCORES_PER_METHOD } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';

const WRITER = join(import.meta.dirname, 'kill-writer.fixture.ts');
const METHODS = 3;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-kill-'));
const file = join(dir, 'results.duckdb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the writer; resolves with the count of committed questions it reported when it exits. */
function runWriter(end: number, killAfter?: number): Promise<{ committed: number; signal: string | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, '0', String(end)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let committed = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    committed += chunk.split('\n').filter(Boolean).length;
    if (killAfter !== undefined && committed >= killAfter) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (killAfter === undefined && code !== 0) reject(new Error(`writer exited with ${code}`));
      else resolve({ committed, signal });
    });
  });
}

async function perQuestionCounts(): Promise<{ questions: number; bad: unknown[] }> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const bad = await store.query(`
      SELECT q.question_id,
        (SELECT count(*) FROM retrievals r WHERE r.question_id = q.question_id) AS r,
        (SELECT count(*) FROM scores s WHERE s.question_id = q.question_id) AS s
      FROM questions q
      WHERE r <> ${METHODS} OR s <> ${METHODS * FAKE_SCORES_PER_METHOD}`);
    const orphans = await store.query(`
      SELECT question_id FROM scores EXCEPT SELECT question_id FROM questions
      UNION ALL SELECT question_id FROM retrievals EXCEPT SELECT question_id FROM questions`);
    const [row] = await store.query<{ n: number }>('SELECT count(*) AS n FROM questions');
    return { questions: row?.n ?? 0, bad: [...bad, ...orphans] };
  } finally {
    await store.close();
  }
}

describe('kill and resume', () => {
  it('leaves only complete questions after SIGKILL and resumes without duplicates', async () => {
    const TOTAL = 100_000; // far more than it can write before the kill
    const killed = await runWriter(TOTAL, 40);
    expect(killed.signal).toBe('SIGKILL');
    const after = await perQuestionCounts();
    expect(after.bad).toEqual([]);
    // Every question the child reported as committed survived; one more may have committed before the kill landed.
    expect(after.questions).toBeGreaterThanOrEqual(killed.committed);
    expect(after.questions).toBeLessThan(TOTAL);

    const end = after.questions + 25;
    const resumed = await runWriter(end);
    expect(resumed.committed).toBe(25); // only the missing ones were written
    const final = await perQuestionCounts();
    expect(final).toEqual({ questions: end, bad: [] });
  });
});
