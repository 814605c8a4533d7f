/**
 * SIGTERM and SIGINT during a real `adaptmr run` whose reader and judge are slow paid calls (the loopback OpenAI
 * stand-in answering after a delay): the run starts no new question, lets the calls in flight return — each one
 * recorded in `llm_calls` — writes the questions it finished, and exits with one line and 128 + the signal number.
 * The same command then resumes and completes, and over both invocations the endpoint received no request twice
 * (the paid calls of the interrupted run were cached, not lost).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parisQaChat } from '../llm/testing/paris-qa.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { openResultStore } from '../store/index.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-interrupt-'));
let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer({ chat: parisQaChat(), delayMs: 800 });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const CHAT = '/v1/chat/completions';

function run(exp: string, out: string, signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin', 'adaptmr.js'), 'run', exp, '--out', out, '--no-progress'],
    {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  if (signal) {
    // Signalled while paid calls are in flight (the stand-in holds each for 800 ms).
    const start = server.count(CHAT);
    const poll = setInterval(() => {
      if (server.count(CHAT) > start) {
        clearInterval(poll);
        setTimeout(() => child.kill(signal), 100);
      }
    }, 10);
    child.on('close', () => clearInterval(poll));
  }
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

/** One request's identity as the endpoint sees it (model and messages). */
const key = (body: unknown): string =>
  JSON.stringify([(body as { model?: string }).model, (body as { messages?: unknown }).messages]);

async function paidCalls(file: string): Promise<number> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const [r] = await store.query<{ n: number }>(
      'SELECT count(*)::INTEGER AS n FROM llm_calls WHERE NOT cached AND error IS NULL',
    );
    return r!.n;
  } finally {
    await store.close();
  }
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s during a run', (signal) => {
  it('finishes and records the calls in flight, exits with one line, and the resume repeats no paid call', async () => {
    server.reset();
    const exp = join(dir, `exp-${signal}.yaml`);
    writeFileSync(
      exp,
      `name: interrupt-${signal.toLowerCase()}
datasets:
  - name: longmemeval-s
    limit: 8
methods:
  - { id: bm25, method: bm25, k: 3 }
concurrency: 2
llm:
  cache: { dir: ${join(dir, `cache-${signal}`)} }
  concurrency: 2
  maxRetries: 0
  roles:
    reader: { baseURL: ${server.baseURL}, model: slow-reader }
    judge: { baseURL: ${server.baseURL}, model: slow-judge }
qa: {}
`,
    );
    const out = join(dir, `${signal}.duckdb`);
    const first = await run(exp, out, signal);
    const lines = first.stderr.split('\n').filter((l) => l.startsWith('adaptmr run:'));
    expect(lines[0], first.stderr).toMatch(new RegExp(`^adaptmr run: ${signal}: starting no new question`, 'u'));
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^adaptmr run: interrupted by ${signal}: \\d+ questions written .*run the same command again to resume$`,
        'u',
      ),
    );
    expect(first.code).toBe(signal === 'SIGTERM' ? 143 : 130);
    expect(first.stderr).not.toMatch(/^\s{4}at /mu);
    // Every request the endpoint answered was recorded as a paid call: none was lost in flight.
    const sent = server.count(CHAT);
    expect(sent).toBeGreaterThan(0);
    expect(await paidCalls(out)).toBe(sent);
    // The run stopped early: questions were left for the resume.
    const store = await openResultStore(out, { readOnly: true });
    const [q] = await store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM questions');
    await store.close();
    expect(q!.n).toBeLessThan(8);

    const second = await run(exp, out);
    expect(second.code, second.stderr).toBe(0);
    const keys = server.requests.filter((r) => r.path === CHAT).map((r) => key(r.body));
    expect(keys.length).toBeGreaterThan(sent);
    expect(new Set(keys).size).toBe(keys.length);
  }, 180_000);
});
