/**
 * The fairness contract on a memory-server method (docs/memory-servers.md): the benchmark's k, not the provider's,
 * decides what the reader sees. A provider mapped to return 30 memories whatever k is (`top_k: 30`) is cut to k = 10
 * and the retrieval's notes say so (`returned: 30`, `cutToK`); one that returns fewer than k is recorded
 * (`fewerThanK`). A rerun of the same search is served from the cache with the same notes and calls no tool.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx, Embedder, IndexSpec } from '../../src/core/interfaces.ts';
import type { LlmProvider } from '../../src/core/llm.ts';
import type { Session } from '../../src/core/types.ts';
import { createMemoryIndex } from '../../src/index/memory-index.ts';
import { methods } from '../../src/run/methods/method-registry.ts';
import { type McpMemoryHttpServer, startMcpMemoryHttpServer } from '../../examples/mcp-memory-typescript/server.ts';

const TURN: IndexSpec = { granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: true };
const noEmbedder: Embedder = { id: 'none', dim: 1, embed: () => Promise.reject(new Error('no embedding here')) };
const AT = '2023-05-01T09:30:00Z';
// 40 turns that all mention the cat (half of them in Chinese), so BM25 finds all 40.
const HAYSTACK: Session[] = Array.from({ length: 4 }, (_, s) => ({
  id: `s${s}`,
  at: AT,
  turns: Array.from({ length: 10 }, (_, i) => ({
    id: `s${s}#${i + 1}`,
    sessionId: `s${s}`,
    index: i,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    text: i % 2 === 0 ? `My cat Miso did thing number ${s * 10 + i}.` : `猫 Miso 今天做了第 ${s * 10 + i} 件事。`,
    at: AT,
  })),
}));

let server: McpMemoryHttpServer;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-mcp-fair-'));
beforeAll(async () => {
  server = await startMcpMemoryHttpServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const provider = (): LlmProvider => ({
  forRole: () => {
    throw new Error('no LLM here');
  },
  has: () => false,
  requestPolicy: {
    schedule: (fn) => fn(),
    timeoutMs: 5000,
    maxRetries: 0,
    retryBaseMs: 1,
    cacheDir: join(dir, 'cache'),
    cacheMode: 'read-write',
  },
});
const tools = (topK: unknown) => ({
  ingest: {
    name: 'extract_memory',
    arguments: {
      trajectory: '{{trajectory}}',
      query: '{{session_title}}',
      async_mode: false,
      agent_id: '{{namespace}}',
    },
  },
  search: {
    name: 'retrieve_memory',
    arguments: { query: '{{query}}', top_k: topK, agent_id: '{{namespace}}' },
    reply: { items: 'memories', text: 'content', score: 'score', ids: 'unit_ids' },
  },
});
const create = (topK: unknown, k: number, runKey: string) =>
  methods.create(
    'mcp-memory',
    { url: server.url, tools: tools(topK) },
    { id: 'mcp', index: TURN, k, seed: 1, runKey, llmRoles: [] },
  );

describe('fairness contract on memory-server methods', () => {
  it('cuts a provider that returns 30 memories to k = 10 and says so; a rerun is served the same from the cache', async () => {
    const method = await create(30, 10, 'fair30');
    const index = createMemoryIndex(HAYSTACK, TURN, noEmbedder);
    const query = Object.freeze({ id: 'q1', text: 'What did my cat Miso do?', askedAt: '2023-06-01T00:00:00Z' });
    const ctx: Ctx = { seed: 1, calls: [], llm: provider() };
    const r = await method.run(query, index, ctx);
    expect(r.retrieval.units).toHaveLength(10);
    expect(r.retrieval.context.match(/^\(\d+\) /gm)).toHaveLength(10);
    expect(r.retrieval.notes).toMatchObject({ returned: 30, cutToK: true, fewerThanK: false, memories: 10 });
    const before = server.store.requests;
    const again = await (await create(30, 10, 'fair30-rerun')).run(query, index, {
      seed: 1,
      calls: [],
      llm: provider(),
    });
    expect(server.store.requests).toBe(before);
    expect(again.retrieval.notes).toEqual(r.retrieval.notes);
    await method.close?.();
  });

  it('records a provider that returns fewer than k', async () => {
    const method = await create('{{k}}', 50, 'fair50');
    const index = createMemoryIndex(HAYSTACK, TURN, noEmbedder);
    const query = Object.freeze({ id: 'q2', text: 'Miso', askedAt: '2023-06-01T00:00:00Z' });
    const r = await method.run(query, index, { seed: 1, calls: [], llm: provider() });
    expect(r.retrieval.notes).toMatchObject({ returned: 40, cutToK: false, fewerThanK: true, memories: 40 });
    await method.close?.();
  });
});
