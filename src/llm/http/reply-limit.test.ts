/**
 * Reply size caps and strict reply text, against a real loopback server that misbehaves: an endless chunked body,
 * a 10 MB reply announced by its content-length, and a reply whose bytes are not UTF-8. Through the LLM client (its
 * pooled node:http fetch), the memory servers' JSON client, the embedder's fetch and the real CLI run: the body
 * stops at the cap while it streams (the server sees the connection closed after at most a few buffers), the call
 * fails once with a message naming the option, and nothing is cached; a reply that is not UTF-8 is an error naming
 * the byte, never text with U+FFFD in it.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../core/calls.ts';
import { cappedFetch, ReplyTooLargeError } from '../../core/reply-limit.ts';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { openResultStore } from '../../store/index.ts';
import { LlmCallError } from '../errors.ts';
import { createLlmProvider } from '../provider.ts';
import { HttpCallError, JsonHttpClient } from './json-http.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

type Mode = 'endless' | 'huge' | 'not-utf8';
let mode: Mode = 'endless';
let server: ReturnType<typeof createServer>;
let base = '';
/** Bytes the server wrote per request, and how many requests it got. */
let sent: number[] = [];
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-reply-limit-'));

const completion = (content: string): string =>
  JSON.stringify({
    id: 'x',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });

function handle(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    const i = sent.push(0) - 1;
    if (mode === 'endless') {
      // A chunked JSON body that never ends: `{"choices":[{"message":{"content":"aaaa…` forever.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices":[{"message":{"role":"assistant","content":"');
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) sent[i]! += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
      return;
    }
    if (mode === 'huge') {
      const body = completion('b'.repeat(10 * 1024 * 1024));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.on('close', () => undefined);
      res.write(body.slice(0, 64 * 1024), () => (sent[i]! += 64 * 1024));
      return; // the client refuses by the announced length; the rest is never sent
    }
    // Latin-1 "café" (0xE9 alone is not UTF-8) inside an otherwise valid JSON reply.
    const bytes = Buffer.from(completion('caf#'), 'latin1');
    bytes[bytes.indexOf('caf#') + 3] = 0xe9;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
    res.end(bytes);
    sent[i] = bytes.length;
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  sent = [];
});

const CAP = 64 * 1024;
const llm = (cacheDir: string) =>
  createLlmProvider(
    {
      cache: { mode: 'read-write', dir: cacheDir },
      maxRetries: 2,
      retryBaseMs: 1,
      timeoutMs: 10_000,
      maxReplyBytes: CAP,
      roles: { reader: { baseURL: `${base}/v1`, model: 'm' } },
    },
    {},
  ).forRole('reader');

describe('the LLM client', () => {
  it('stops an endless body at the cap while it streams: one attempt, an error naming llm.maxReplyBytes, nothing cached', async () => {
    const cacheDir = join(dir, 'cache-endless');
    const calls: CallRecord[] = [];
    const err = await llm(cacheDir)
      .chat({ messages: [{ role: 'user', content: 'hi' }] }, { stage: 'reader', calls })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmCallError);
    expect((err as Error).message).toMatch(
      /failed after 1 attempt\(s\): reply body exceeds the 65536-byte cap \(llm\.maxReplyBytes\)/u,
    );
    expect(calls.map((c) => c.error)).toEqual([expect.stringMatching(/exceeds the 65536-byte cap/u)]);
    await new Promise((r) => setTimeout(r, 100));
    // The connection was dropped near the cap, not drained (the socket buffers hold at most a few MB).
    expect(sent).toHaveLength(1);
    expect(sent[0]!).toBeLessThan(16 * 1024 * 1024);
    expect(readdirSync(cacheDir, { recursive: true }).filter((f) => String(f).endsWith('.json'))).toEqual([]);
  });

  it('refuses a reply whose announced length is over the cap without reading it', async () => {
    mode = 'huge';
    const err = await llm(join(dir, 'cache-huge'))
      .chat({ messages: [{ role: 'user', content: 'hi' }] }, { stage: 'reader', calls: [] })
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/reply body exceeds the 65536-byte cap \(llm\.maxReplyBytes\)/u);
    expect(sent).toHaveLength(1);
  });

  it('a reply that is not UTF-8 is an error naming the byte after its retries, never text with U+FFFD', async () => {
    mode = 'not-utf8';
    const err = await llm(join(dir, 'cache-utf8'))
      .chat({ messages: [{ role: 'user', content: 'hi' }] }, { stage: 'reader', calls: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmCallError);
    expect((err as Error).message).toMatch(
      /still failing after 3 attempt\(s\): reply body is not valid UTF-8 \(byte \d+\)/u,
    );
    expect(sent).toHaveLength(3);
  });
});

describe('the JSON client of memory servers and the embedder fetch', () => {
  const client = () =>
    new JsonHttpClient(
      { label: 'mem0:oss', baseUrl: base },
      { schedule: (fn) => fn(), timeoutMs: 10_000, maxRetries: 2, retryBaseMs: 1, maxReplyBytes: CAP },
    );

  it('stops an endless body at the cap, not retried; a non-UTF-8 body is retried then named', async () => {
    mode = 'endless';
    const err = await client()
      .request({ method: 'POST', path: '/search', body: {} }, { stage: 'search', calls: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpCallError);
    expect((err as Error).message).toMatch(
      /^mem0:oss POST http:\/\/127\.0\.0\.1:\d+\/search: reply body exceeds the 65536-byte cap/u,
    );
    expect(sent).toHaveLength(1);
    mode = 'not-utf8';
    sent = [];
    const bad = await client()
      .request({ method: 'GET', path: '/memories' }, { stage: 'search', calls: [] })
      .catch((e: unknown) => e);
    expect((bad as Error).message).toMatch(/not valid UTF-8 \(byte \d+\).*still failing after 3 attempt/u);
  });

  it("cappedFetch (the embedder's) stops an endless body at the cap", async () => {
    mode = 'endless';
    await expect(
      cappedFetch(CAP, 'embedder option maxReplyBytes')(`${base}/v1/embeddings`, { method: 'POST', body: '{}' }),
    ).rejects.toBeInstanceOf(ReplyTooLargeError);
  });
});

describe('a run whose reader streams without end', () => {
  it('records a clear error row for each question and ends', async () => {
    mode = 'endless';
    const exp = join(dir, 'exp.yaml');
    writeFileSync(
      exp,
      `name: endless-reader
datasets:
  - name: longmemeval-s
    limit: 2
methods:
  - { id: bm25, method: bm25, k: 3 }
llm:
  cache: { dir: ${join(dir, 'run-cache')} }
  maxRetries: 0
  maxReplyBytes: ${CAP}
  roles:
    reader: { baseURL: ${base}/v1, model: endless }
    judge: { baseURL: ${base}/v1, model: endless }
qa: {}
`,
    );
    const out = join(dir, 'endless.duckdb');
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(REPO_ROOT, 'bin', 'adaptmr.js'), 'run', exp, '--out', out, '--no-progress'],
        { stdio: 'ignore' },
      );
      child.on('close', resolve);
    });
    expect(code).not.toBeNull();
    const store = await openResultStore(out, { readOnly: true });
    const rows = await store.query<{ error: string | null; answer: string | null }>(
      'SELECT error, answer FROM answers',
    );
    await store.close();
    expect(rows.length).toBe(2);
    for (const r of rows) {
      expect(r.error).toMatch(/reply body exceeds the 65536-byte cap \(llm\.maxReplyBytes\)/u);
      expect(r.answer ?? '').not.toMatch(/aaaa/u);
    }
  }, 120_000);
});
