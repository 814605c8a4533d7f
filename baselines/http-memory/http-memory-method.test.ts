// The http-memory method against the TypeScript reference server (through a proxy that counts requests and can
// rewrite replies): ingestion once, dated memories and ranked units for the reader, Chinese; the question's date sent
// and part of the cache key; a killed ingestion and a batch stored before a failed reply leave nothing twice (the
// protocol's idempotent batch_id); a server without source ids needs output: text; a wrong protocol is one line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointError } from '../../src/core/errors.ts';
import type { Checkpoints, Ctx, Embedder, IndexSpec, Method } from '../../src/core/interfaces.ts';
import type { LlmProvider, RequestPolicy } from '../../src/core/llm.ts';
import type { Query, Session } from '../../src/core/types.ts';
import { createMemoryIndex } from '../../src/index/memory-index.ts';
import { methods } from '../../src/run/methods/method-registry.ts';
import { type HttpMemoryServer, startHttpMemoryServer } from '../../examples/http-memory-typescript/server.ts';
import { memoryCheckpoints } from '../memory-server/ingest.ts';
import { startProxy } from './testing/reference-servers.ts';

const noEmbedder: Embedder = { id: 'none', dim: 1, embed: () => Promise.reject(new Error('no embedding here')) };
const TURN: IndexSpec = { granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: true };
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-http-memory-'));
let server: HttpMemoryServer;
let n = 0;

beforeAll(async () => {
  server = await startHttpMemoryServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function session(id: string, at: string, turns: [string, 'user' | 'assistant', string][]): Session {
  return {
    id,
    at,
    turns: turns.map(([speaker, role, text], i) => ({
      id: `${id}#${i + 1}`,
      sessionId: id,
      index: i,
      role,
      speaker,
      text,
      at,
    })),
  };
}
const HAYSTACK: Session[] = [
  session('s2', '2023-05-08T14:00:00Z', [
    ['Caroline', 'user', 'I adopted a cat named Miso last week.'],
    ['Melanie', 'assistant', 'Miso is a lovely name for a cat.'],
  ]),
  session('s1', '2023-05-01T09:30:00Z', [
    ['Caroline', 'user', 'I moved to Lisbon for a new nursing job.'],
    ['Melanie', 'assistant', 'Lisbon is beautiful in spring.'],
  ]),
  session('s3', '2023-05-20T18:15:00Z', [
    ['Caroline', 'user', '我在学习大提琴，每周上两次课。'],
    ['Melanie', 'assistant', '大提琴很难，但很有意思。'],
  ]),
];
const q = (text: string, askedAt = '2023-06-01T00:00:00Z'): Query => Object.freeze({ id: `q${n++}`, text, askedAt });
function provider(cacheDir = join(dir, `cache-${n++}`), over: Partial<RequestPolicy> = {}): LlmProvider {
  const requestPolicy: RequestPolicy = {
    schedule: (fn) => fn(),
    timeoutMs: 2000,
    maxRetries: 2,
    retryBaseMs: 1,
    cacheDir,
    cacheMode: 'read-write',
    ...over,
  };
  return {
    forRole: () => {
      throw new Error('no LLM here');
    },
    has: () => false,
    requestPolicy,
  };
}
const ctx = (llm: LlmProvider, checkpoints?: Checkpoints): Ctx => ({
  seed: 1,
  calls: [],
  llm,
  ...(checkpoints ? { checkpoints } : {}),
});
const create = (options: Record<string, unknown>, runKey = `run${n++}`): Promise<Method> =>
  methods.create(
    'http-memory',
    { pollMs: 1, ...options },
    { id: 'hm', index: TURN, k: 3, seed: 1, runKey, llmRoles: [] },
  );

/** Messages the server holds in the one namespace the proxy saw created. */
async function stored(url: string, ns: string): Promise<number> {
  return ((await (await fetch(`${url}/namespaces/${ns}`)).json()) as { messages: number }).messages;
}

describe('http-memory method', () => {
  it('ingests once, renders dated memories, ranks units, answers in Chinese; the question date is sent and keys the cache', async () => {
    const sent: unknown[] = [];
    const proxy = await startProxy(
      server.url,
      (method, path, _s, _b, body) => void (method === 'POST' && path.endsWith('/search') && sent.push(body)),
    );
    try {
      const method = await create({ url: proxy.url });
      const index = createMemoryIndex(HAYSTACK, TURN, noEmbedder);
      const cacheDir = join(dir, 'cache-main');
      const out = await method.run(q('What is the name of my cat?'), index, ctx(provider(cacheDir)));
      expect(out.retrieval.units.map((u) => u.unit.id).sort()).toEqual(['s2#1', 's2#2']);
      expect(out.retrieval.context).toMatch(/^\(1\) \[2023\/05\/08 \(Mon\) 14:00\] (Caroline|Melanie): .*Miso/);
      const zh = await method.run(q('我在学习什么乐器？'), index, ctx(provider(cacheDir)));
      expect(zh.retrieval.units[0]!.unit.sessionId).toBe('s3');
      expect(sent[0]).toEqual({
        query: 'What is the name of my cat?',
        k: 3,
        question_date: '2023-06-01T00:00:00.000Z',
      });
      const before = proxy.requests;
      await method.run(q('What is the name of my cat?'), index, ctx(provider(cacheDir)));
      expect(proxy.requests).toBe(before); // cached
      // Before the cat was adopted, the reference server leaves its later messages out: a new date, a new search.
      const early = await method.run(
        q('What is the name of my cat?', '2023-05-02T00:00:00Z'),
        index,
        ctx(provider(cacheDir)),
      );
      expect(proxy.requests).toBe(before + 1);
      expect(early.retrieval.units.map((u) => u.unit.sessionId)).not.toContain('s2');
      await method.close?.();
    } finally {
      await proxy.close();
    }
  });

  it('a killed ingestion and a batch stored before its reply failed leave every message once', async () => {
    let ns = '';
    let failAdd = true;
    const proxy = await startProxy(server.url, (method, path, status) => {
      if (method === 'PUT') ns = path.split('/')[2]!;
      // The server stores the second session, then the reply is lost (500).
      if (method === 'POST' && path.endsWith('/sessions') && status === 200 && failAdd && proxyAdds++ === 1) {
        failAdd = false;
        return { status: 500, body: { error: 'lost' } };
      }
      return undefined;
    });
    let proxyAdds = 0;
    try {
      const index = createMemoryIndex(HAYSTACK, TURN, noEmbedder);
      const inner = memoryCheckpoints();
      let killed = false;
      const cp: Checkpoints = {
        ...inner,
        put: async (k, v) => {
          if (killed || !k.endsWith(':b2')) return inner.put(k, v);
          killed = true;
          throw new Error('killed');
        },
      };
      const opts = { url: proxy.url, keep: true };
      await expect((await create(opts, 'resume')).run(q('cat'), index, ctx(provider(), cp))).rejects.toThrow('killed');
      const out = await (await create(opts, 'resume')).run(q('cat'), index, ctx(provider(), cp));
      expect(out.retrieval.context).toContain('Miso');
      expect(failAdd).toBe(false);
      expect(await stored(server.url, ns)).toBe(index.units.length);
    } finally {
      await proxy.close();
    }
  });

  it('a server without source ids needs output: text; a wrong protocol is one line', async () => {
    const textOnly = await startProxy(server.url, (_method, path, status, body) => {
      if (path === '/health') return { status, body: { ...(body as object), sources: false } };
      if (path.endsWith('/search'))
        return { status, body: { items: (body as { items: object[] }).items.map((i) => ({ ...i, unit_ids: null })) } };
      return undefined;
    });
    const wrong = await startProxy(server.url, (_m, path, status) =>
      path === '/health' ? { status, body: { protocol: 'http-memory/2', sources: true } } : undefined,
    );
    try {
      const index = createMemoryIndex(HAYSTACK, TURN, noEmbedder);
      const err = await (await create({ url: textOnly.url }))
        .run(q('cat'), index, ctx(provider()))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EndpointError);
      expect(String(err)).toMatch(/no source ids .*set output: text/);
      const text = await create({ url: textOnly.url, output: 'text' });
      expect(text.capabilities.output).toBe('text');
      const out = await text.run(q('What is the name of my cat?'), index, ctx(provider()));
      expect(out.retrieval.units).toEqual([]);
      expect(out.retrieval.context).toContain('Miso');
      await text.close?.();
      const err2 = await (await create({ url: wrong.url }))
        .run(q('cat'), index, ctx(provider()))
        .catch((e: unknown) => e);
      expect(err2).toBeInstanceOf(EndpointError);
      expect(String(err2)).toMatch(/speaks "http-memory\/2", not http-memory\/1/);
      expect(String(err2)).not.toContain('\n');
    } finally {
      await textOnly.close();
      await wrong.close();
    }
  });

  it("keeps the image a server reports in /health: shown by doctor, stored as the run's checkpoint", async () => {
    const image = `example/memory@sha256:${'ab'.repeat(32)}`;
    const reporting = await startProxy(server.url, (_m, path, status, body) =>
      path === '/health' ? { status, body: { ...(body as object), image } } : undefined,
    );
    try {
      const cp = memoryCheckpoints();
      const method = await create({ url: reporting.url });
      expect((await method.checkEndpoints!())[0]!.detail).toBe(`reachable, key accepted; runs ${image}`);
      await method.run(q('cat'), createMemoryIndex(HAYSTACK, TURN, noEmbedder), ctx(provider(), cp));
      expect(await cp.get('server-image')).toBe(image);
    } finally {
      await reporting.close();
    }
  });

  it('rejects options off the contract with one line', async () => {
    await expect(create({})).rejects.toThrow(/url/);
    await expect(create({ url: 'ftp://x' })).rejects.toThrow(/url/);
    await expect(create({ url: server.url, apiKey: 'literal-key' })).rejects.toThrow(/apiKey/);
  });
});
