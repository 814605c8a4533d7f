/**
 * The conformance suite every registered method runs — a new method gets it by registering in method-registry.ts.
 * Each entry's examples (default: empty options) run offline (no LLM role configured, `ctx.llm` absent) and with every
 * LLM role pointed at the loopback OpenAI-compatible server, on the plan's eight-memory haystack (session
 * granularity), a LoCoMo conversation (turn granularity) and a LongMemEval S question. Checks:
 *   - ranked: scores non-increasing; unit ids exist in the index and are unique; at most k units;
 *   - deterministic for a seed (two runs give the same ids, scores and context);
 *   - no gold reachable: the query is a frozen {id, text, askedAt} and the index a proxy that throws on anything
 *     outside the MemoryIndex contract;
 *   - accounting complete: every request the loopback server (and a fixture memory server) received is a CallRecord;
 *   - errors become data: through the runner's runMethod, a method whose index fails yields an error row, no throw;
 *   - memory writing changes nothing: on a fresh index of the same haystack, `memorise` then `run` gives the same
 *     units, scores and context as `run` alone (a method without `memorise` passes trivially).
 * An example may exempt itself from a check with a reason (EntryExample.exempt) or be skipped with a reason; a method
 * that needs an LLM role is skipped offline because the runner refuses it there (that refusal is checked too).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpMemoryServer, startHttpMemoryServer } from '../../../examples/http-memory-typescript/server.ts';
import { type McpMemoryHttpServer, startMcpMemoryHttpServer } from '../../../examples/mcp-memory-typescript/server.ts';
import { ExperimentConfigSchema } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import type { Ctx, IndexSpec, MemoryIndex, Method } from '../../core/interfaces.ts';
import { LLM_ROLES, type LlmProvider } from '../../core/llm.ts';
import type { Instance, Query } from '../../core/types.ts';
import { loadDataset } from '../../data/index.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../../index/index.ts';
import { createLlmProvider } from '../../llm/index.ts';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
  type FakeReply,
} from '../../llm/testing/fake-openai-server.ts';
import { ASKED_AT, frozenQuery, guardedIndex, PLAN_HAYSTACK, strategyChat } from '../../strategies/testing/fixtures.ts';
import { checkCapabilities } from './create-methods.ts';
import type { IndexCache } from '../index-cache.ts';
import { methods } from './method-registry.ts';
import { emptyBatch, runMethod } from '../question.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';

const DATA = TEST_DATA_DIR;
const SESSION: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const TURN: IndexSpec = {
  granularity: 'turn',
  roles: ['user', 'assistant'],
  includeCaptions: true,
  speakerPrefix: true,
};
const K = 5;

interface Case {
  label: string;
  spec: IndexSpec;
  index: MemoryIndex;
  /** Another index of the same haystack, with units no method has seen (per-unit memos are keyed by unit object). */
  fresh: () => MemoryIndex;
  queries: Query[];
}

const embedder = createWinkSifEmbedder();
let server: FakeOpenAiServer;
const cases: Case[] = [];

beforeAll(async () => {
  server = await startFakeOpenAiServer({ chat: conformanceChat });
  cases.push({
    label: 'plan haystack',
    spec: SESSION,
    index: createMemoryIndex(PLAN_HAYSTACK, SESSION, embedder),
    fresh: () => createMemoryIndex(PLAN_HAYSTACK, SESSION, embedder),
    queries: [
      frozenQuery("What is my cat's name?"),
      frozenQuery('Where do I live now?', ASKED_AT, 'q2'),
      frozenQuery('我的猫叫什么名字？', ASKED_AT, 'q3'),
    ],
  });
  const locomo = await loadDataset({ name: 'locomo', limit: 3 }, DATA);
  const c = locomo.instances[0]!;
  cases.push({
    label: 'LoCoMo',
    spec: TURN,
    index: createMemoryIndex(c.haystack, TURN, embedder),
    fresh: () => createMemoryIndex(c.haystack, TURN, embedder),
    queries: locomo.instances
      .filter((i) => i.haystackId === c.haystackId)
      .slice(0, 2)
      .map((i) => frozenQuery(i.query.text, i.query.askedAt, i.query.id)),
  });
  const lme = await loadDataset({ name: 'longmemeval-s', questionIds: ['gpt4_2655b836'] }, DATA);
  const l = lme.instances[0]!;
  cases.push({
    label: 'LongMemEval S',
    spec: SESSION,
    index: createMemoryIndex(l.haystack, SESSION, embedder),
    fresh: () => createMemoryIndex(l.haystack, SESSION, embedder),
    queries: [frozenQuery(l.query.text, l.query.askedAt, l.query.id)],
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await httpMemory?.close();
  await mcpMemory?.close();
});

let httpMemory: HttpMemoryServer | undefined;
let mcpMemory: McpMemoryHttpServer | undefined;
/** What an example can ask for (`fixtures`): fixture name → a maker returning the option's value. */
const FIXTURES: Record<string, () => Promise<string>> = {
  /** The TypeScript reference http-memory server on a free port (its search cache in a temporary folder). */
  'http-memory-server': async () => {
    process.env.ADAPTMR_CACHE_DIR ??= mkdtempSync(join(tmpdir(), 'adaptmr-conformance-cache-'));
    httpMemory ??= await startHttpMemoryServer();
    return httpMemory.url;
  },
  /** The reference MCP memory server (ReasoningBank tool names) over Streamable HTTP on a free port. */
  'mcp-memory-server': async () => {
    process.env.ADAPTMR_CACHE_DIR ??= mkdtempSync(join(tmpdir(), 'adaptmr-conformance-cache-'));
    mcpMemory ??= await startMcpMemoryHttpServer({ delayMs: 5 });
    return mcpMemory.url;
  },
};

async function withFixtures(options: unknown, fixtures: Partial<Record<string, string>> | undefined): Promise<unknown> {
  if (!fixtures) return options;
  const out = { ...(options as Record<string, unknown>) };
  for (const [option, name] of Object.entries(fixtures)) {
    const make = FIXTURES[name!];
    if (!make) throw new Error(`no conformance fixture named ${name}`);
    out[option] = await make();
  }
  return out;
}

/** The strategies' scripted replies, plus a classifier reply naming one type (the plan's label set). */
function conformanceChat(body: ChatRequestBody): FakeReply {
  if (body.response_format?.json_schema?.name === 'query_type') {
    return {
      text: JSON.stringify({
        type: 'temporal_reasoning',
        probabilities: {
          factual_extraction: 0.2,
          temporal_reasoning: 0.5,
          knowledge_update: 0.1,
          multi_hop: 0.1,
          abstention: 0.1,
        },
      }),
    };
  }
  return strategyChat(body);
}

type Env = 'offline' | 'llm';

interface Variant {
  method: string;
  label: string;
  options: unknown;
  env: Env;
  exempt: Partial<Record<string, string>>;
  skip?: string;
  fixtures?: Partial<Record<string, string>>;
}

await methods.loadAll(); // every entry, lazy ones included, runs the suite
const variants: Variant[] = methods.list().flatMap((entry) => {
  const examples = entry.examples ?? [{ label: 'defaults', options: {} }];
  return examples.flatMap((ex) =>
    (['offline', 'llm'] as const).map((env) => ({
      method: entry.name,
      label: ex.label,
      options: ex.options,
      env,
      exempt: ex.exempt ?? {},
      ...(ex.skip ? { skip: ex.skip } : {}),
      ...(ex.fixtures ? { fixtures: ex.fixtures } : {}),
    })),
  );
});

let provider: LlmProvider | undefined;
/** One provider for the suite (retries on: a loopback connection can be reset under load; calls are still counted). */
function llmProvider(): LlmProvider {
  const roles = Object.fromEntries(LLM_ROLES.map((r) => [r, { baseURL: server.baseURL, model: `fake-${r}` }]));
  provider ??= createLlmProvider({ cache: { mode: 'off' }, maxRetries: 2, retryBaseMs: 1, roles }, {});
  return provider;
}

async function build(v: Variant, spec: IndexSpec): Promise<Method | string> {
  const llmRoles = v.env === 'llm' ? [...LLM_ROLES] : [];
  v = { ...v, options: await withFixtures(v.options, v.fixtures) };
  const config = ExperimentConfigSchema.parse({
    name: 'conformance',
    datasets: [{ name: 'locomo' }],
    methods: [{ id: 'm', method: v.method, options: v.options as Record<string, unknown>, index: spec, k: K }],
    ...(v.env === 'llm'
      ? {
          llm: { roles: Object.fromEntries(LLM_ROLES.map((r) => [r, { model: 'x', baseURL: server.baseURL }])) },
          qa: {},
        }
      : {}),
  });
  const method = await methods.create(
    v.method,
    v.options,
    { id: 'm', index: spec, k: K, seed: 42, runKey: 'conformance', llmRoles },
    `method ${v.method}`,
  );
  try {
    checkCapabilities(method.capabilities, config, llmRoles, `method ${v.method}`);
  } catch (err) {
    // The runner refuses this configuration before any work (e.g. an LLM role offline, or text-only without qa).
    if (err instanceof InputError) return err.message;
    throw err;
  }
  return method;
}

describe.each(variants)('method $method ($label, $env)', (v) => {
  it.skipIf(v.skip !== undefined)(`conforms${v.skip ? ` — skipped: ${v.skip}` : ''}`, async (test) => {
    for (const c of cases) {
      const method = await build(v, c.spec);
      if (typeof method === 'string') {
        expect(v.env, `refused online: ${method}`).toBe('offline');
        return test.skip(`the runner refuses this configuration before any work: ${method}`);
      }
      for (const q of c.queries) {
        const where = `${c.label} / ${q.text}`;
        // Requests to every endpoint a method may use: the LLM server and a fixture memory server.
        const seen = () => server.requests.length + (httpMemory?.requests ?? 0) + (mcpMemory?.store.requests ?? 0);
        const before = seen();
        const ctx = (): Ctx => (v.env === 'llm' ? { seed: 3, calls: [], llm: llmProvider() } : { seed: 3, calls: [] });
        const c1 = ctx();
        const a = await method.run(q, guardedIndex(c.index), c1);
        // Every request the endpoints saw is accounted for.
        expect(c1.calls.filter((x) => !x.cached && !x.error).length, `${where}: calls recorded`).toBe(seen() - before);
        const b = await method.run(q, guardedIndex(c.index), ctx());
        if (!v.exempt.deterministic) {
          expect(
            b.retrieval.units.map((u) => [u.unit.id, u.score]),
            where,
          ).toEqual(a.retrieval.units.map((u) => [u.unit.id, u.score]));
          expect(b.retrieval.context, where).toBe(a.retrieval.context);
        }
        expect(typeof a.retrieval.context, where).toBe('string');
        if (method.capabilities.output === 'text') continue;
        const ids = a.retrieval.units.map((u) => u.unit.id);
        if (!v.exempt.withinK) expect(ids.length, where).toBeLessThanOrEqual(K);
        expect(new Set(ids).size, where).toBe(ids.length);
        for (const id of ids) expect(c.index.unit(id), `${where}: ${id}`).toBeDefined();
        const scores = a.retrieval.units.map((u) => u.score);
        for (let i = 1; i < scores.length; i++) expect(scores[i]!, where).toBeLessThanOrEqual(scores[i - 1]!);
        if (a.retrieval.noMemory) expect(ids, where).toEqual([]);
      }
    }
  });

  it.skipIf(v.skip !== undefined)('gives the same results after memorise as without it', async (test) => {
    for (const c of cases) {
      const [lazy, prepared] = [await build(v, c.spec), await build(v, c.spec)];
      if (typeof lazy === 'string') return test.skip(`the runner refuses this configuration before any work: ${lazy}`);
      if (typeof prepared === 'string')
        return test.skip(`the runner refuses this configuration before any work: ${prepared}`);
      if (!prepared.memorise) return test.skip(`${v.method} has no memorise step`);
      const ctx = (): Ctx => (v.env === 'llm' ? { seed: 3, calls: [], llm: llmProvider() } : { seed: 3, calls: [] });
      const [lazyIndex, preparedIndex] = [guardedIndex(c.fresh()), guardedIndex(c.fresh())];
      await prepared.memorise(preparedIndex, ctx());
      for (const q of c.queries) {
        const a = await lazy.run(q, lazyIndex, ctx());
        const b = await prepared.run(q, preparedIndex, ctx());
        const where = `${c.label} / ${q.text}`;
        if (v.exempt.deterministic) continue;
        expect(
          b.retrieval.units.map((u) => [u.unit.id, u.score]),
          where,
        ).toEqual(a.retrieval.units.map((u) => [u.unit.id, u.score]));
        expect(b.retrieval.context, where).toBe(a.retrieval.context);
        expect(b.retrieval.noMemory, where).toBe(a.retrieval.noMemory);
      }
    }
  });

  it.skipIf(v.skip !== undefined)('turns a failure into an error row, never a throw', async (test) => {
    if (v.exempt.failure) return test.skip(v.exempt.failure);
    const method = await build(v, SESSION);
    if (typeof method === 'string')
      return test.skip(`the runner refuses this configuration before any work: ${method}`);
    const instance: Instance = {
      dataset: 'plan',
      query: { id: 'q-fail', text: 'Where do I live now?', askedAt: ASKED_AT },
      haystackId: 'plan',
      haystack: PLAN_HAYSTACK,
      gold: {
        nativeType: 'knowledge-update',
        type: 'update',
        isAbstention: false,
        evidenceSessionIds: ['M4'],
        evidenceTurnIds: ['M4#1'],
        answer: 'Hangzhou',
      },
    };
    const broken = new Proxy(createMemoryIndex(PLAN_HAYSTACK, SESSION, embedder), {
      get(target, prop, receiver) {
        if (prop === 'spec') return Reflect.get(target, prop, receiver);
        throw new Error('index unavailable');
      },
    });
    const config = ExperimentConfigSchema.parse({
      name: 'conformance',
      datasets: [{ name: 'locomo' }],
      methods: [{ id: 'm', method: v.method }],
    });
    const batch = emptyBatch(instance, 'run');
    const indexes = { get: () => broken } as unknown as IndexCache;
    const failed = await runMethod(instance, { id: 'm', kind: v.method, index: SESSION, k: K, impl: method }, batch, {
      config,
      runId: 'run',
      indexes,
      llm: v.env === 'llm' ? llmProvider() : undefined,
      protocol: 'longmemeval',
    });
    expect(failed).toBe('method'); // the failed stage (src/run/record/failures.ts): the index broke under the method
    expect(batch.retrievals).toHaveLength(1);
    expect(batch.retrievals[0]!.error).toEqual(expect.any(String));
    expect(batch.scores).toEqual([]);
  });
});
