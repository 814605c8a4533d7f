// A run killed halfway resumes without repeating paid calls: a child process asks 8 questions through the file
// cache; it is SIGKILLed when the 5th request reaches the server; a second run sends only questions 5–8, and a third
// run sends nothing and prints the same answers.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeOpenAiServer, startFakeOpenAiServer } from './testing/fake-openai-server.ts';

const CHILD = fileURLToPath(new URL('./testing/chat-batch-child.ts', import.meta.url));
const KEY = 'sk-resume-SECRET-987654321';
let server: FakeOpenAiServer;
let dir: string;
let killAt = 0;
let onKill: (() => void) | undefined;
const asked: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-resume-'));
  server = await startFakeOpenAiServer({
    chat: (body) => {
      const q = body.messages[0]?.content ?? '';
      asked.push(q);
      if (asked.length === killAt) {
        onKill?.();
        return { hang: true };
      }
      return `answer to ${q}`;
    },
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function runChild(
  kill: boolean,
): Promise<{ lines: { i: number; text: string; cached: boolean }[]; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, CHILD_N: '8', CHILD_CACHE_DIR: dir, CHILD_BASE_URL: server.baseURL, CHILD_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    onKill = kill ? () => child.kill('SIGKILL') : undefined;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0 && signal === null) reject(new Error(`child failed (${code}): ${err}`));
      const lines = out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { i: number; text: string; cached: boolean });
      resolve({ lines, signal });
    });
  });
}

it('resumes a killed batch without repeating answered calls', async () => {
  killAt = 5;
  const first = await runChild(true);
  expect(first.signal).toBe('SIGKILL');
  expect(first.lines.map((l) => l.i)).toEqual([1, 2, 3, 4]);
  expect(asked).toEqual(['question 1', 'question 2', 'question 3', 'question 4', 'question 5']);

  killAt = 0;
  asked.length = 0;
  const second = await runChild(false);
  expect(second.lines.map((l) => l.cached)).toEqual([true, true, true, true, false, false, false, false]);
  // only the unanswered questions went out again
  expect(asked).toEqual(['question 5', 'question 6', 'question 7', 'question 8']);

  asked.length = 0;
  const third = await runChild(false);
  expect(asked).toEqual([]);
  expect(third.lines.map((l) => l.text)).toEqual(second.lines.map((l) => l.text));

  // the key went over the wire, and into no cache file
  expect(server.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  expect(files).toHaveLength(8);
  for (const f of files) expect(await readFile(join(f.parentPath, f.name), 'utf8')).not.toContain(KEY);
});
