/**
 * Secrets never land on disk or stderr: a loopback server echoes the key back in every error shape — the
 * Authorization header in a 401 message, a JSON body field, a URL — and in a successful reply, through each HTTP
 * client the runner uses (LLM chat for reader and judge, the OpenAI-compatible embedder). After a real CLI run (a
 * child process) every file it wrote — the results file, the LLM cache, the embedding cache — and its stderr are
 * searched for the key in its plain, URL-encoded and base64 forms.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResultStore } from '../store/index.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const KEY = 'sk-echo-secret-9d8e7f6a5b';
const FORMS = [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')];
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-secrets-'));
let server: ReturnType<typeof createServer>;
let baseURL = '';
let calls = 0;
let chatCalls = 0;

/** Rotates through the echo shapes; every third chat call succeeds with a reply that quotes the key. */
function handle(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const auth = req.headers.authorization ?? '';
    const n = calls++;
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.url?.includes('/embeddings')) {
      // Embeddings always fail: header echo, JSON body, URL with the key.
      const shape = n % 3;
      if (shape === 0)
        return send(401, { error: { message: `Incorrect API key provided: ${auth}`, type: 'invalid_request_error' } });
      if (shape === 1) return send(403, { error: { message: 'forbidden', key: KEY, type: 'auth' } });
      return send(500, {
        error: { message: `upstream https://api.example/v1?api_key=${encodeURIComponent(KEY)} failed` },
      });
    }
    const c = chatCalls++;
    if (c % 3 === 0)
      return send(200, {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `yes (your key is ${KEY})` } },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    if (c % 3 === 1)
      return send(401, { error: { message: `Bad key ${auth} / ${Buffer.from(KEY).toString('base64')}` } });
    return send(400, { error: { message: `bad request for ${KEY}` } });
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

function files(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const p = join(root, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe('secrets', () => {
  it('a key echoed by every client in every shape appears in no file the run writes, nor on stderr', async () => {
    const cacheDir = join(dir, 'cache');
    const exp = join(dir, 'exp.yaml');
    writeFileSync(
      exp,
      `
name: secrets
datasets:
  - name: longmemeval-s
    limit: 3
embedder: { name: openai, options: { model: echo-embed, dimensions: 8, baseURL: ${baseURL}, apiKeyEnv: ADAPTMR_SECRET_TEST_KEY, cache: true } }
methods:
  - id: embed
    method: unified-embedding
    k: 3
  - id: full
    method: full-context
    options: { maxContextTokens: 2000 }
llm:
  cache: { mode: read-write, dir: ${join(cacheDir, 'llm')} }
  maxRetries: 0
  roles:
    reader: { baseURL: ${baseURL}, model: echo-reader, apiKeyEnv: ADAPTMR_SECRET_TEST_KEY }
    judge: { baseURL: ${baseURL}, model: echo-judge, apiKeyEnv: ADAPTMR_SECRET_TEST_KEY }
qa: {}
`,
    );
    const out = join(dir, 'results.duckdb');
    // Asynchronous child: the loopback server runs in this process and must keep answering.
    const run = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('npx', ['tsx', join(REPO_ROOT, 'src/cli.ts'), 'run', exp, '--out', out, '--no-progress'], {
        cwd: REPO_ROOT,
        env: { ...process.env, ADAPTMR_SECRET_TEST_KEY: KEY, ADAPTMR_CACHE_DIR: cacheDir },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', () => resolve({ stdout, stderr }));
    });
    const written = [...files(dir)];
    expect(calls).toBeGreaterThan(3);
    // The run really carried failures (so the echoes reached the error paths).
    const store = await openResultStore(out, { readOnly: true });
    const errors = await store.query<{ n: number }>(
      'SELECT count(*)::INTEGER AS n FROM retrievals WHERE error IS NOT NULL',
    );
    const answers = await store.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM answers');
    await store.close();
    expect(errors[0]!.n).toBeGreaterThan(0);
    expect(answers[0]!.n).toBeGreaterThan(0);
    expect(written.some((f) => f.includes(join('cache', 'llm')))).toBe(true);
    for (const form of FORMS) {
      expect(run.stderr.includes(form), `stderr holds ${form}: ${run.stderr.slice(0, 2000)}`).toBe(false);
      expect(run.stdout.includes(form), `stdout holds ${form}`).toBe(false);
      for (const f of written) {
        if (f === exp) continue;
        expect(readFileSync(f).includes(form), `${f} holds ${form}`).toBe(false);
      }
    }
  });
});
