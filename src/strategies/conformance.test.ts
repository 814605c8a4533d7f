/**
 * The shared conformance suite every registered strategy passes (offline modes, and LLM modes against the loopback
 * fake OpenAI server), on the plan's hand-made haystack, a real LongMemEval S question and a real LoCoMo
 * conversation: ranked best first (non-increasing scores), ids that exist in the index, no duplicates, length ≤ k,
 * deterministic (two runs identical), and no gold access (a frozen Query with only id/text/askedAt and an index
 * proxy that throws on anything outside the MemoryIndex contract). Offline modes get no LLM at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx, IndexSpec, MemoryIndex } from '../core/interfaces.ts';
import type { Query } from '../core/types.ts';
import { loadDataset } from '../data/index.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { createLlmProvider } from '../llm/index.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { strategies } from './registry.ts';
import type { Strategy } from '../core/interfaces.ts';
import { ASKED_AT, frozenQuery, guardedIndex, PLAN_HAYSTACK, strategyChat } from './testing/fixtures.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

const DATA = TEST_DATA_DIR;
const SESSION_SPEC: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const TURN_SPEC: IndexSpec = {
  granularity: 'turn',
  roles: ['user', 'assistant'],
  includeCaptions: true,
  speakerPrefix: true,
};

interface Case {
  label: string;
  index: MemoryIndex;
  queries: Query[];
  k: number;
}

const embedder = createWinkSifEmbedder();
let server: FakeOpenAiServer;
const cases: Case[] = [];

beforeAll(async () => {
  server = await startFakeOpenAiServer({ chat: strategyChat });
  cases.push({
    label: 'plan haystack',
    index: createMemoryIndex(PLAN_HAYSTACK, SESSION_SPEC, embedder),
    k: 5,
    queries: [
      frozenQuery("What is my cat's name?"),
      frozenQuery('Did I start running before I moved to Hangzhou?'),
      frozenQuery('What restaurant did you recommend last month?'),
      frozenQuery('Where do I live now?'),
      frozenQuery('Which restaurants did I ask about, and what cuisine is each?'),
      frozenQuery('What is my blood type?'),
    ],
  });
  const lme = await loadDataset({ name: 'longmemeval-s', questionIds: ['gpt4_2655b836'] }, DATA);
  const l = lme.instances[0]!;
  cases.push({
    label: `LongMemEval S ${l.query.id}`,
    index: createMemoryIndex(l.haystack, SESSION_SPEC, embedder),
    k: 10,
    queries: [frozenQuery(l.query.text, l.query.askedAt, l.query.id)],
  });
  const locomo = await loadDataset({ name: 'locomo', limit: 3 }, DATA);
  const c = locomo.instances[0]!;
  cases.push({
    label: `LoCoMo ${c.haystackId}`,
    index: createMemoryIndex(c.haystack, TURN_SPEC, embedder),
    k: 10,
    queries: locomo.instances.map((i) => frozenQuery(i.query.text, i.query.askedAt, i.query.id)),
  });
});

afterAll(async () => {
  await server.close();
});

function llmCtx(): Ctx {
  const llm = createLlmProvider(
    { cache: { mode: 'off' }, maxRetries: 0, roles: { strategy: { baseURL: server.baseURL, model: 'fake' } } },
    {},
  );
  return { seed: 1, calls: [], llm };
}

/** Each entry's examples (its modes); an entry without examples runs with empty options. */
const variants = strategies.list().flatMap((e) =>
  (e.examples ?? [{ label: 'defaults', options: {} }]).map((ex) => ({
    name: e.name,
    label: ex.label,
    options: ex.options,
  })),
);

describe.each(variants)('strategy $name ($label)', ({ name, options }) => {
  async function build(): Promise<Strategy> {
    return strategies.create(name, options, undefined);
  }

  it('returns ranked, existing, unique ids within k, deterministically, without gold', async () => {
    const strategy = await build();
    expect(strategy.name).toBe(name);
    const mode = strategy.mode;
    for (const c of cases) {
      for (const q of c.queries) {
        const where = `${c.label} / ${q.text}`;
        const run = async () => {
          const ctx = mode === 'llm' ? llmCtx() : { seed: 1, calls: [] };
          const before = server.requests.length;
          const r = await strategy.retrieve(q, guardedIndex(c.index), c.k, ctx);
          // Every request the endpoint received is accounted for; offline modes make none.
          expect(ctx.calls.length, where).toBe(server.requests.length - before);
          if (mode === 'offline') expect(ctx.calls, where).toEqual([]);
          return r;
        };
        const a = await run();
        const b = await run();
        expect(b, where).toEqual(a);
        expect(a.units.length, where).toBeLessThanOrEqual(c.k);
        const ids = a.units.map((u) => u.unit.id);
        expect(new Set(ids).size, where).toBe(ids.length);
        for (const id of ids) expect(c.index.unit(id), `${where}: ${id}`).toBeDefined();
        for (let i = 1; i < a.units.length; i++)
          expect(a.units[i]!.score, where).toBeLessThanOrEqual(a.units[i - 1]!.score);
        expect(typeof a.context).toBe('string');
        expect(a.context.length, where).toBeGreaterThan(0);
        if (a.noMemory) {
          expect(a.units).toEqual([]);
          expect(a.context).toContain('[NO_RELEVANT_MEMORY]');
        } else {
          // Every returned unit is shown to the reader, with its date.
          for (const u of a.units)
            expect(a.context, where).toContain(
              `[${u.unit.at.slice(0, 4)}/${u.unit.at.slice(5, 7)}/${u.unit.at.slice(8, 10)}`,
            );
        }
        expect(a.notes, where).toBeDefined();
        // LLM replies parsed (no silent fallback to the offline rule).
        expect(a.notes?.llmFallback, where).toBeUndefined();
      }
    }
  });

  it('rejects unknown options (strict schema)', () => {
    expect(() => strategies.parseOptions(name, { modee: 'offline' }, `strategy ${name}`)).toThrow(/modee/);
  });
});

describe('offline modes never touch ctx.llm', () => {
  it.for(variants)('$name ($label)', async ({ name, options }, test) => {
    const strategy = await strategies.create(name, options, undefined);
    test.skip(
      strategy.mode !== 'offline',
      `${name} runs in ${strategy.mode} mode with these options: the check is for offline modes`,
    );
    const ctx: Ctx = {
      seed: 1,
      calls: [],
      get llm(): never {
        throw new Error('offline strategy touched ctx.llm');
      },
    };
    const c = cases[0]!;
    for (const q of c.queries) await strategy.retrieve(q, c.index, 5, ctx);
    expect(ASKED_AT).toBe(c.queries[0]!.askedAt);
  });
});
