/**
 * Durable accounting of paid calls: a CLI run (an asynchronous child; the loopback server runs in this
 * process) is SIGKILLed by the server itself the moment a chosen request arrives — mid-question, after that
 * question's reader call was paid and before its rows were committed — and then resumed. With one question and one
 * LLM call at a time, every request before the fatal one was answered and returned to the child, so the accounting
 * must match the server exactly: `llm_calls` holds one `cached = false` row per answered request, and as many rows in
 * all as an uninterrupted run writes (the replies replayed from the cache on resume are not recorded twice).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { openResultStore } from '../../store/index.ts';
import { parseExperiment } from '../config/load-config.ts';
import { REPO_ROOT } from '../record/provenance.ts';
import { runExperiment } from '../runner.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const QUESTIONS = 6;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-paid-'));
let server: FakeOpenAiServer;
let answered = 0;
let received = 0;
let killAt = Number.POSITIVE_INFINITY;
let child: ChildProcess | undefined;

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    chat: (body) => {
      received++;
      if (received === killAt && child) {
        child.kill('SIGKILL');
        return { hang: true }; // never answered: the child dies waiting for it
      }
      answered++;
      return body.model === 'j' ? 'yes' : 'Paris';
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const yaml = (cache: string): string => `
name: paid
datasets:
  - name: longmemeval-oracle
    limit: ${QUESTIONS}
methods:
  - id: bm25
    method: bm25
    k: 3
concurrency: 1
llm:
  cache: { mode: read-write, dir: ${cache} }
  concurrency: 1
  maxRetries: 0
  roles:
    reader: { baseURL: ${server.baseURL}, model: r, apiKeyEnv: ADAPTMR_PAID_TEST_KEY }
    judge: { baseURL: ${server.baseURL}, model: j, apiKeyEnv: ADAPTMR_PAID_TEST_KEY }
qa: {}
`;

async function accounting(file: string): Promise<{ rows: number; paid: number; cached: number }> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const [r] = await store.query<{ rows: number; paid: number; cached: number }>(
      `SELECT count(*)::INTEGER AS rows, sum((NOT cached)::INTEGER)::INTEGER AS paid, sum(cached::INTEGER)::INTEGER AS cached FROM llm_calls`,
    );
    return r!;
  } finally {
    await store.close();
  }
}

describe('paid calls after kill -9 and resume', () => {
  it('are each recorded once, as many as the endpoint answered', async () => {
    process.env.ADAPTMR_PAID_TEST_KEY = 'sk-paid-test';
    // An uninterrupted run: what llm_calls holds when nothing goes wrong.
    const clean = await runExperiment(parseExperiment(yaml(join(dir, 'clean-cache')), 'clean.yaml'), {
      out: join(dir, 'clean.duckdb'),
      progress: false,
      log: () => {},
    });
    expect(clean.errors).toBe(0);
    const reference = await accounting(join(dir, 'clean.duckdb'));
    expect(reference.paid).toBe(answered);
    expect(reference.paid).toBeGreaterThanOrEqual(QUESTIONS * 2); // a reader and a judge call per question

    // Killed when the fourth question's judge request arrives (its reader call is paid, its rows not yet written).
    answered = 0;
    received = 0;
    killAt = 3 * 2 + 2;
    const file = join(dir, 'kill.yaml');
    const out = join(dir, 'kill.duckdb');
    writeFileSync(file, yaml(join(dir, 'kill-cache')));
    await new Promise<void>((resolve, reject) => {
      child = spawn(process.execPath, [join(REPO_ROOT, 'bin/adaptmr.js'), 'run', file, '--out', out, '--no-progress'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env },
      });
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('exit', (_code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error(`child was not killed: ${stderr}`)),
      );
    });
    child = undefined;
    expect(received).toBe(killAt);
    const answeredBeforeKill = answered;
    const afterKill = await accounting(out);
    expect(afterKill.paid).toBe(answeredBeforeKill); // durable as they returned, not only with their question

    const resumed = await runExperiment(parseExperiment(yaml(join(dir, 'kill-cache')), file), {
      out,
      progress: false,
      log: () => {},
    });
    expect(resumed.errors).toBe(0);
    const total = await accounting(out);
    expect(total.paid).toBe(answered); // every answered request, once
    expect(total.rows).toBe(reference.rows); // no replayed duplicate
    expect(total.paid).toBe(reference.paid); // the unanswered request was asked again, nothing else paid twice
  });
});
