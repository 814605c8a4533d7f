// The LLM client against the loopback OpenAI-compatible server: retries, errors, cache modes, de-duplication,
// structured output, logprobs, accounting, and that the API key is sent but never stored.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallRecord } from '../core/interfaces.ts';
import type { LlmConfigInput } from './config.ts';
import { LlmCallError } from './errors.ts';
import { createLlmProvider } from './provider.ts';
import { type FakeOpenAiServer, startFakeOpenAiServer } from './testing/fake-openai-server.ts';
import { countChatTokens, countTokens } from './tokens.ts';

const KEY = 'sk-test-SECRET-0123456789abcdef';
const CHAT = '/v1/chat/completions';
let server: FakeOpenAiServer;
let dir: string;

beforeAll(async () => {
  server = await startFakeOpenAiServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.reset();
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-llm-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function config(over: Partial<LlmConfigInput> = {}, role: Record<string, unknown> = {}): LlmConfigInput {
  return {
    cache: { mode: 'read-write', dir },
    concurrency: 4,
    timeoutMs: 2000,
    maxRetries: 3,
    retryBaseMs: 1,
    prices: { 'judge-model': { inputPerMTok: 2, outputPerMTok: 10 } },
    roles: { judge: { baseURL: server.baseURL, model: 'judge-model', apiKeyEnv: 'TEST_KEY', ...role } },
    ...over,
  };
}
const env = { TEST_KEY: KEY };
const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

async function allFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(join(e.parentPath, e.name));
  }
  return out;
}

describe('retries', () => {
  it('retries 429, 500 and a timeout, then succeeds with one call record', async () => {
    const llm = createLlmProvider(config({ timeoutMs: 300 }), env).forRole('judge');
    server.enqueue({ status: 429, retryAfterSec: 0 }, { status: 500 }, { hang: true }, { text: 'yes' });
    const calls: CallRecord[] = [];
    const r = await llm.chat(ask('q1'), { stage: 'judge', calls });
    expect(r.text).toBe('yes');
    expect(server.count(CHAT)).toBe(4);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ stage: 'judge', model: 'judge-model', cached: false });
    expect(calls[0]?.error).toBeUndefined();
  });

  it('retries a malformed JSON body', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    server.enqueue({ malformed: true }, { text: 'fine' });
    const r = await llm.chat(ask('q-malformed'), { stage: 'judge', calls: [] });
    expect(r.text).toBe('fine');
    expect(server.count(CHAT)).toBe(2);
  });

  it('a reply that stays broken throws LlmCallError, records an error call, and is not cached', async () => {
    const provider = createLlmProvider(config({ maxRetries: 2 }), env);
    const llm = provider.forRole('judge');
    server.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
    const calls: CallRecord[] = [];
    const err = await llm.chat(ask('q-broken'), { stage: 'judge', calls }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmCallError);
    expect((err as LlmCallError).attempts).toBe(3);
    expect(String((err as Error).message)).toContain('HTTP 500');
    expect(server.count(CHAT)).toBe(3);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.error).toMatch(/500/);
    expect(calls[0]?.cached).toBe(false);
    // errors are never cached: the same request goes to the network again and now succeeds
    expect(await allFiles(dir)).toEqual([]);
    server.enqueue({ text: 'recovered' });
    const r = await llm.chat(ask('q-broken'), { stage: 'judge', calls });
    expect(r).toMatchObject({ text: 'recovered', cached: false });
    expect(server.count(CHAT)).toBe(4);
  });

  it('does not retry a 401', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    server.enqueue({ status: 401 });
    await expect(llm.chat(ask('q-401'), { stage: 'judge', calls: [] })).rejects.toThrow(LlmCallError);
    expect(server.count(CHAT)).toBe(1);
  });
});

describe('cache', () => {
  it('a second call is a hit: zero HTTP requests, identical result', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    server.enqueue({ text: 'first answer' });
    const a = await llm.chat({ ...ask('same'), temperature: 0 }, { stage: 'judge', calls: [] });
    // a fresh provider (a second run) reads the same cache directory
    const llm2 = createLlmProvider(config(), env).forRole('judge');
    const calls: CallRecord[] = [];
    const b = await llm2.chat({ ...ask('same'), temperature: 0 }, { stage: 'judge', calls });
    expect(server.count(CHAT)).toBe(1);
    expect(b.cached).toBe(true);
    expect(b.text).toBe(a.text);
    expect([b.promptTokens, b.completionTokens, b.costUsd]).toEqual([a.promptTokens, a.completionTokens, a.costUsd]);
    expect(calls[0]?.cached).toBe(true);
  });

  it('the repeat index, temperature and model make distinct entries', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    await llm.chat({ ...ask('r'), repeat: 0 }, { stage: 'judge', calls: [] });
    await llm.chat({ ...ask('r'), repeat: 1 }, { stage: 'judge', calls: [] });
    await llm.chat({ ...ask('r'), repeat: 1, temperature: 0.5 }, { stage: 'judge', calls: [] });
    await llm.chat({ ...ask('r'), repeat: 1 }, { stage: 'judge', calls: [] });
    expect(server.count(CHAT)).toBe(3);
  });

  it('read-only reads but never writes; off never reads', async () => {
    const ro = createLlmProvider(config({ cache: { mode: 'read-only', dir } }), env).forRole('judge');
    await ro.chat(ask('ro'), { stage: 'judge', calls: [] });
    await ro.chat(ask('ro'), { stage: 'judge', calls: [] });
    expect(server.count(CHAT)).toBe(2);
    expect(await allFiles(dir)).toEqual([]);

    const rw = createLlmProvider(config(), env).forRole('judge');
    await rw.chat(ask('ro'), { stage: 'judge', calls: [] });
    expect(await allFiles(dir)).toHaveLength(1);
    const ro2 = createLlmProvider(config({ cache: { mode: 'read-only', dir } }), env).forRole('judge');
    expect((await ro2.chat(ask('ro'), { stage: 'judge', calls: [] })).cached).toBe(true);
    const off = createLlmProvider(config({ cache: { mode: 'off', dir } }), env).forRole('judge');
    expect((await off.chat(ask('ro'), { stage: 'judge', calls: [] })).cached).toBe(false);
    expect(server.count(CHAT)).toBe(4);
  });

  it('identical concurrent requests are made once', async () => {
    const provider = createLlmProvider(config({ cache: { mode: 'off', dir } }), env);
    const llm = provider.forRole('judge');
    server.enqueue({ text: 'shared', delayMs: 50 });
    const calls: CallRecord[] = [];
    const results = await Promise.all(Array.from({ length: 5 }, () => llm.chat(ask('dup'), { stage: 'judge', calls })));
    expect(server.count(CHAT)).toBe(1);
    expect(new Set(results.map((r) => r.text))).toEqual(new Set(['shared']));
    expect(calls).toHaveLength(5);
    expect(calls.filter((c) => !c.cached)).toHaveLength(1);
    expect(provider.stats().deduplicated).toBe(4);
  });

  it('the key is sent to the server but appears in no cache file, call record or error', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    const calls: CallRecord[] = [];
    await llm.chat(ask('secret?'), { stage: 'judge', calls });
    server.enqueue({ status: 400 });
    await llm.chat(ask('bad'), { stage: 'judge', calls }).catch(() => undefined);
    expect(server.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    const files = await allFiles(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(await readFile(f, 'utf8')).not.toContain(KEY);
    expect(JSON.stringify(calls)).not.toContain(KEY);
    expect(JSON.stringify(createLlmProvider(config(), env).describe())).not.toContain(KEY);
  });
});

describe('structured output', () => {
  const schema = { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] };

  it('sends json_schema where supported and parses the reply', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    server.enqueue({ text: '{"label":"CORRECT"}' });
    const r = await llm.chat({ ...ask('j'), jsonSchema: { name: 'verdict', schema } }, { stage: 'judge', calls: [] });
    expect(r.json).toEqual({ label: 'CORRECT' });
    const body = server.requests[0]?.body as { response_format: { type: string; json_schema: { name: string } } };
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.name).toBe('verdict');
  });

  it('falls back to schema-in-prompt on a 400 and parses a fenced reply', async () => {
    const local = await startFakeOpenAiServer({
      supportsJsonSchema: false,
      chat: () => 'Sure:\n```json\n{"label": "WRONG"}\n```',
    });
    try {
      const llm = createLlmProvider(config({}, { baseURL: local.baseURL }), env).forRole('judge');
      const r = await llm.chat(
        { ...ask('j2'), jsonSchema: { name: 'verdict', schema } },
        { stage: 'judge', calls: [] },
      );
      expect(r.json).toEqual({ label: 'WRONG' });
      expect(local.count(CHAT)).toBe(2);
      const second = local.requests[1]?.body as { response_format?: unknown; messages: { content: string }[] };
      expect(second.response_format).toBeUndefined();
      expect(second.messages.at(-1)?.content).toContain('JSON Schema');
      // the fallback sticks: the next call goes straight to prompt mode
      await llm.chat({ ...ask('j3'), jsonSchema: { name: 'verdict', schema } }, { stage: 'judge', calls: [] });
      expect(local.count(CHAT)).toBe(3);
    } finally {
      await local.close();
    }
  });

  it('a reply with no JSON is retried, then an error', async () => {
    const llm = createLlmProvider(config({ maxRetries: 1 }), env).forRole('judge');
    server.enqueue({ text: 'not json' }, { text: 'still not' });
    await expect(
      llm.chat({ ...ask('j4'), jsonSchema: { name: 'verdict', schema } }, { stage: 'judge', calls: [] }),
    ).rejects.toThrow(/no parseable JSON/);
    expect(server.count(CHAT)).toBe(2);
  });
});

describe('accounting', () => {
  it('passes logprobs through', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    server.enqueue({
      text: 'factual',
      logprobs: [
        {
          token: 'factual',
          logprob: -0.1,
          top: [
            { token: 'factual', logprob: -0.1 },
            { token: 'temporal', logprob: -2.5 },
          ],
        },
      ],
    });
    const r = await llm.chat({ ...ask('lp'), logprobs: { top: 2 } }, { stage: 'classify', calls: [] });
    expect(r.logprobs).toEqual([
      {
        token: 'factual',
        logprob: -0.1,
        top: [
          { token: 'factual', logprob: -0.1 },
          { token: 'temporal', logprob: -2.5 },
        ],
      },
    ]);
    expect(server.requests[0]?.body).toMatchObject({ logprobs: true, top_logprobs: 2 });
  });

  it('takes tokens from usage and cost from the price table', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    server.enqueue({ text: 'x', usage: { promptTokens: 1000, completionTokens: 200 } });
    const calls: CallRecord[] = [];
    const r = await llm.chat(ask('cost'), { stage: 'judge', calls });
    // 1000 × $2/M + 200 × $10/M = 0.002 + 0.002
    expect(r.costUsd).toBeCloseTo(0.004, 12);
    expect(calls[0]).toMatchObject({ promptTokens: 1000, completionTokens: 200 });
    expect(calls[0]?.costUsd).toBeCloseTo(0.004, 12);
  });

  it('counts tokens with the tokenizer when usage is missing', async () => {
    const llm = createLlmProvider(config(), env).forRole('judge');
    server.enqueue({ text: 'The answer is Paris.', noUsage: true });
    const messages = [{ role: 'user' as const, content: 'Where is the Eiffel tower?' }];
    const r = await llm.chat({ messages }, { stage: 'judge', calls: [] });
    expect(r.completionTokens).toBe(countTokens('The answer is Paris.'));
    expect(r.promptTokens).toBe(countChatTokens(messages));
    expect(r.completionTokens).toBeGreaterThan(0);
  });

  it('sends max_completion_tokens when the role asks for it', async () => {
    const llm = createLlmProvider(config({}, { maxTokensParam: 'max_completion_tokens', maxTokens: 64 }), env).forRole(
      'judge',
    );
    await llm.chat(ask('mct'), { stage: 'judge', calls: [] });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.max_completion_tokens).toBe(64);
    expect(body.max_tokens).toBeUndefined();
  });

  it('a model missing from the price table costs 0', async () => {
    const llm = createLlmProvider(config({}, { model: 'local-llama' }), env).forRole('judge');
    expect((await llm.chat(ask('free'), { stage: 'judge', calls: [] })).costUsd).toBe(0);
  });
});

describe('provider', () => {
  it('falls back to OPENAI_BASE_URL / OPENAI_API_KEY when the role names no endpoint', async () => {
    const llm = createLlmProvider(
      { cache: { mode: 'off' }, retryBaseMs: 1, roles: { reader: { model: 'm' } } },
      { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-env-key-123' },
    ).forRole('reader');
    await llm.chat(ask('env'), { stage: 'read', calls: [] });
    expect(server.requests[0]?.authorization).toBe('Bearer sk-env-key-123');
  });

  it('rejects unknown fields, an unset apiKeyEnv, and an unconfigured role', () => {
    expect(() => createLlmProvider({ ...config(), apiKey: 'x' } as LlmConfigInput, env)).toThrow(/apiKey/);
    expect(() => createLlmProvider(config(), {})).toThrow(/TEST_KEY/);
    expect(() => createLlmProvider(config(), env).forRole('reader')).toThrow(/llm\.roles\.reader/);
  });
});

describe('fake server embeddings', () => {
  it('serves float and base64 embeddings with usage through the real SDK', async () => {
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
    const b64 = await sdk.embeddings.create({ model: 'e', input: ['alpha', 'beta'] });
    const flt = await sdk.embeddings.create({ model: 'e', input: ['alpha', 'beta'], encoding_format: 'float' });
    expect(b64.data).toHaveLength(2);
    expect((server.requests[0]!.body as { encoding_format?: string }).encoding_format).toBe('base64');
    const a = b64.data[0]?.embedding ?? [];
    const f = flt.data[0]?.embedding ?? [];
    expect(a).toHaveLength(8);
    a.forEach((x, i) => expect(x).toBeCloseTo(f[i] ?? NaN, 6));
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
    expect(b64.usage.prompt_tokens).toBe(2);
  });

  it('scripts embedding errors and missing usage from their own queue', async () => {
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
    server.enqueueEmbeddings({ status: 429 }, { noUsage: true });
    await expect(sdk.embeddings.create({ model: 'e', input: 'x' })).rejects.toMatchObject({ status: 429 });
    const r = await sdk.embeddings.create({ model: 'e', input: 'x', encoding_format: 'float' });
    expect(r.usage).toBeUndefined();
    expect(server.count('/v1/embeddings')).toBe(2);
  });
});

describe('structured output fallback scope', () => {
  it('an unrelated 400 does not switch to schema-in-prompt', async () => {
    const llm = createLlmProvider(config({ maxRetries: 0 }), env).forRole('judge');
    server.enqueue({ status: 400 });
    await expect(
      llm.chat({ ...ask('ctx'), jsonSchema: { name: 'v', schema: { type: 'object' } } }, { stage: 'judge', calls: [] }),
    ).rejects.toThrow(LlmCallError);
    server.enqueue({ text: '{"a":1}' });
    await llm.chat(
      { ...ask('ctx2'), jsonSchema: { name: 'v', schema: { type: 'object' } } },
      { stage: 'judge', calls: [] },
    );
    expect((server.requests[1]!.body as { response_format?: { type: string } }).response_format?.type).toBe(
      'json_schema',
    );
    expect(server.count(CHAT)).toBe(2);
  });
});
