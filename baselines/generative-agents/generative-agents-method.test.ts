// generative-agents end to end: offline ranking and access updates on the plan haystack; against the loopback LLM
// server on two LoCoMo conversations — memorising once per conversation, reflections pointing at evidence units,
// and a rerun from the LLM cache that makes zero calls and returns the same results.
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
import { createGenerativeAgentsMethod, GenerativeAgentsOptionsSchema } from './generative-agents-method.ts';

const SESSION: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const ctxOf = (k: number, llm = false) => ({
  id: 'ga',
  index: SESSION,
  k,
  seed: 1,
  runKey: 'test',
  llmRoles: llm ? (['strategy'] as const) : [],
});

describe('generative-agents offline', () => {
  it('is marked degraded, ranks by recency + relevance, and moves last access for later questions only', async () => {
    const method = createGenerativeAgentsMethod(GenerativeAgentsOptionsSchema.parse({}), ctxOf(2));
    expect(method.capabilities).toEqual({ output: 'units', memorises: true, degraded: 'offline' });
    const index = createMemoryIndex(PLAN_HAYSTACK, SESSION, hashEmbedder);
    const cat = await method.run({ id: 'q1', text: 'my cat named Snowball', askedAt: ASKED_AT }, index, {
      seed: 1,
      calls: [],
    });
    // M3 is the relevant one; M8 the most recent (recency 1).
    expect(cat.retrieval.units.map((u) => u.unit.id).sort()).toEqual(['M3', 'M8']);
    expect(cat.retrieval.context).toContain('2023/03/15');
    // A month later, M3 counts as accessed at q1's date (recency 1, like M8); without q1 it would be March-old.
    const later = new Date(Date.parse(ASKED_AT) + 30 * 86_400_000).toISOString();
    const recencyOfM3 = async (m: typeof method) => {
      const out = await m.run({ id: 'q2', text: 'my cat named Snowball', askedAt: later }, index, {
        seed: 1,
        calls: [],
      });
      return (out.retrieval.notes as { retrieved: { id: string; recency: number }[] }).retrieved.find(
        (r) => r.id === 'o:M3',
      )?.recency;
    };
    expect(await recencyOfM3(method)).toBe(1);
    const fresh = await recencyOfM3(createGenerativeAgentsMethod(GenerativeAgentsOptionsSchema.parse({}), ctxOf(2)));
    expect(fresh).toBeLessThan(0.01);
    // The same question at q1's own date does not see q1's access (simultaneous questions never see each other).
    const same = await method.run({ id: 'q3', text: 'running ten kilometers', askedAt: ASKED_AT }, index, {
      seed: 1,
      calls: [],
    });
    expect((same.retrieval.notes as { earlierQuestions: number }).earlierQuestions).toBe(0);
  });
});

describe('generative-agents with an LLM (loopback server)', () => {
  let server: FakeOpenAiServer;
  const cache = tempDir();
  beforeAll(async () => {
    server = await startSeedServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('memorises once per LoCoMo conversation, reflects with evidence, and reruns from the cache with zero calls', async () => {
    const convs = await locomoConversations(SESSION, 2, 3);
    const options = GenerativeAgentsOptionsSchema.parse({ reflectionWindow: 5, reflectionThreshold: 1 });
    const method = createGenerativeAgentsMethod(options, ctxOf(5, true));
    expect(method.capabilities.llmRoles).toEqual(['strategy']);
    const first = await runAll(method, convs, seedProvider(server, cache));
    const requests = server.requests.length;
    for (const c of convs) {
      const rows = first.filter((r) => r.haystackId === c.haystackId);
      // Exactly one question of each conversation carries the memorising calls; the others reuse the stream.
      expect(rows.filter((r) => r.calls.some((x) => x.stage.startsWith('index:'))).length).toBe(1);
      const notes = rows[0]!.out.retrieval.notes as { reflections: number; streamSize: number };
      expect(notes.reflections).toBeGreaterThan(0);
      expect(notes.streamSize).toBe(c.index.units.length + notes.reflections);
      const importance = rows.flatMap((r) => r.calls).filter((x) => x.stage === 'index:importance').length;
      expect(importance).toBe(notes.streamSize); // one rating per observation and per reflection
    }
    expect(first.flatMap((r) => r.calls).filter((x) => !x.cached).length).toBe(requests);
    for (const r of first) {
      expect(r.out.retrieval.units.length).toBeLessThanOrEqual(5);
      expect(r.calls.every((x) => x.stage.startsWith('index:'))).toBe(true);
    }
    // Rerun: a new method and client on the same cache → no request reaches the server, same results.
    const again = await runAll(
      createGenerativeAgentsMethod(options, ctxOf(5, true)),
      convs,
      seedProvider(server, cache),
    );
    expect(server.requests.length).toBe(requests);
    expect(again.map((r) => r.out.retrieval.context)).toEqual(first.map((r) => r.out.retrieval.context));
    expect(again.map((r) => r.out.retrieval.units.map((u) => u.unit.id))).toEqual(
      first.map((r) => r.out.retrieval.units.map((u) => u.unit.id)),
    );
  });
});
