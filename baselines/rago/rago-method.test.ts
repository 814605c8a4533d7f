// rago end to end: offline on the plan haystack (context memories, session scope, Chinese question); against the
// loopback LLM server on two LoCoMo conversations — extraction once per conversation, typed memories, and a rerun
// from the cache with zero calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexSpec } from '../../src/core/interfaces.ts';
import { createMemoryIndex } from '../../src/index/memory-index.ts';
import type { FakeOpenAiServer } from '../../src/llm/testing/fake-openai-server.ts';
import { ASKED_AT, PLAN_HAYSTACK } from '../../src/strategies/testing/fixtures.ts';
import {
  hashEmbedder,
  locomoConversations,
  runAll,
  seedProvider,
  startSeedServer,
  tempDir,
} from '../testing/seed-fixtures.ts';
import { createRagoMethod, RagoOptionsSchema } from './rago-method.ts';

const SESSION: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const TURN: IndexSpec = { granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: true };
const ctxOf = (k: number, llm = false, index = SESSION) => ({
  id: 'rago',
  index,
  k,
  seed: 1,
  runKey: 'test',
  llmRoles: llm ? (['strategy'] as const) : [],
});
type Notes = { scopeSession: string; retrieved: { id: string; type: string; via: string[] }[] };

describe('rago offline', () => {
  it('stores one context memory per unit, scopes to the latest session, and renders the spec format', async () => {
    const method = createRagoMethod(RagoOptionsSchema.parse({}), ctxOf(4, false, TURN));
    expect(method.capabilities).toEqual({ output: 'units', memorises: true, degraded: 'offline' });
    const index = createMemoryIndex(PLAN_HAYSTACK, TURN, hashEmbedder);
    const out = await method.run({ id: 'q', text: 'What is my cat named Snowball?', askedAt: ASKED_AT }, index, {
      seed: 1,
      calls: [],
    });
    const notes = out.retrieval.notes as Notes;
    expect(notes.scopeSession).toBe('M8');
    expect(notes.retrieved.every((r) => r.type === 'context')).toBe(true);
    expect(out.retrieval.units.map((u) => u.unit.id)).toContain('M3#1');
    expect(notes.retrieved.filter((r) => r.via.includes('session')).map((r) => r.id)).toEqual(['u:M8#1', 'u:M8#2']);
    expect(out.retrieval.context).toMatch(/^## Relevant Memory\n\n\[1\] \[context\] \(score: \d\.\d\d\) \[2023\//u);
    const zh = await method.run({ id: 'q2', text: '我的猫叫什么名字？', askedAt: ASKED_AT }, index, {
      seed: 1,
      calls: [],
    });
    expect(zh.retrieval.units.length).toBeGreaterThan(0);
  });
});

describe('rago with an LLM (loopback server)', () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startSeedServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('extracts once per LoCoMo conversation and reruns from the cache with zero calls', async () => {
    const convs = await locomoConversations(TURN, 2, 3);
    const cache = tempDir();
    const first = await runAll(
      createRagoMethod(RagoOptionsSchema.parse({}), ctxOf(6, true, TURN)),
      convs,
      seedProvider(server, cache),
    );
    const requests = server.requests.length;
    for (const c of convs) {
      const rows = first.filter((r) => r.haystackId === c.haystackId);
      expect(rows.filter((r) => r.calls.length > 0).length).toBe(1);
      const sessions = new Set(c.index.units.map((u) => u.sessionId)).size;
      expect(rows.flatMap((r) => r.calls).filter((x) => x.stage === 'index:extract').length).toBe(sessions);
      for (const r of rows) {
        const n = r.out.retrieval.notes as Notes;
        expect(n.retrieved.every((m) => m.type === 'fact')).toBe(true); // the reply's "mood" item is skipped
        // A session's memory expands to that session's turns, at most k of them.
        expect(r.out.retrieval.units.length).toBeLessThanOrEqual(6);
      }
    }
    expect(requests).toBe(first.flatMap((r) => r.calls).filter((x) => !x.cached).length);
    const again = await runAll(
      createRagoMethod(RagoOptionsSchema.parse({}), ctxOf(6, true, TURN)),
      convs,
      seedProvider(server, cache),
    );
    expect(server.requests.length).toBe(requests);
    expect(again.map((r) => r.out.retrieval.context)).toEqual(first.map((r) => r.out.retrieval.context));
  });
});
