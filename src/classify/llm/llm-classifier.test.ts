// The few-shot LLM classifier and rules+llm through the real LLM client against the loopback fake OpenAI server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../core/interfaces.ts';
import { createLlmProvider, type AdaptmrLlmProvider } from '../../llm/index.ts';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
} from '../../llm/testing/fake-openai-server.ts';
import { classifiers } from '../registry.ts';
import type { Classification } from '../result.ts';
import type { RulesLlmClassifier } from '../rules-llm.ts';

let server: FakeOpenAiServer;
let provider: AdaptmrLlmProvider;
let cacheDir: string;

/** Answers like a model that calls everything multi_hop, stating a distribution. */
function chat(body: ChatRequestBody): string {
  const prompt = body.messages[0]?.content ?? '';
  const query = /(?:User query: |用户查询：)(.*)/.exec(prompt)?.[1] ?? '';
  const type = /blood type|血型/.test(query) ? 'abstention' : 'multi_hop';
  return JSON.stringify({
    type,
    probabilities: {
      factual_extraction: 0.1,
      temporal_reasoning: 0.1,
      knowledge_update: 0.1,
      multi_hop: type === 'multi_hop' ? 0.6 : 0.1,
      abstention: type === 'abstention' ? 0.6 : 0.1,
    },
  });
}

beforeAll(async () => {
  server = await startFakeOpenAiServer({ chat });
  cacheDir = await mkdtemp(join(tmpdir(), 'adaptmr-llm-cls-'));
  provider = createLlmProvider(
    {
      cache: { mode: 'read-write', dir: cacheDir },
      roles: { classifier: { baseURL: server.baseURL, model: 'fake-model' } },
    },
    {},
  );
});
afterAll(async () => {
  await server.close();
  await rm(cacheDir, { recursive: true, force: true });
});

const q = (id: string, text: string) => ({ id, text, askedAt: '2023-05-01T00:00:00Z' });

describe('llm classifier', () => {
  it('sends the plan prompt with structured output and logprobs, and records the probability source', async () => {
    server.reset();
    const clf = await classifiers.create('llm', {}, {});
    const calls: CallRecord[] = [];
    const r = (await clf.classify(q('a', 'Which of the restaurants I mentioned had the best reviews?'), {
      seed: 1,
      calls,
      llm: provider,
    })) as Classification;
    expect(r.type).toBe('multi-hop');
    // The fake server's default logprobs split at whitespace; the token ` "multi_hop",` maps to multi-hop only.
    expect(r.source).toBe('logprobs');
    expect(r.probs['multi-hop']).toBe(1);
    const body = server.requests[0]?.body as ChatRequestBody;
    expect(body.response_format?.type).toBe('json_schema');
    expect(body.logprobs).toBe(true);
    expect(body.top_logprobs).toBe(5);
    expect(body.temperature).toBe(0);
    expect(body.messages[0]?.content).toContain('You are a query type classifier');
    expect(body.messages[0]?.content).toContain('User query: Which of the restaurants');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.stage).toBe('classify');
  });

  it('uses the Chinese prompt for Chinese questions, the stated distribution without logprobs, and the cache', async () => {
    server.reset();
    const clf = await classifiers.create('llm', { logprobs: false }, {});
    const ctx = { seed: 1, calls: [] as CallRecord[], llm: provider };
    const r = (await clf.classify(q('b', '我有没有跟你说过我的血型？'), ctx)) as Classification;
    expect(r.type).toBe('abstention');
    expect(r.source).toBe('stated');
    expect(r.probs.abstention).toBeCloseTo(0.6, 12);
    const body = server.requests[0]?.body as ChatRequestBody;
    expect(body.messages[0]?.content).toContain('用户查询：我有没有跟你说过我的血型？');
    expect(body.logprobs).toBeUndefined();
    await clf.classify(q('b', '我有没有跟你说过我的血型？'), ctx);
    expect(server.count('/v1/chat/completions')).toBe(1); // second call served from the cache
    expect(ctx.calls.map((c) => c.cached)).toEqual([false, true]);
  });

  it('fails clearly without an LLM', async () => {
    const clf = await classifiers.create('llm', {}, {});
    await expect(clf.classify(q('c', 'x'), { seed: 1, calls: [] })).rejects.toThrow(/role "classifier"/);
  });

  it('rules+llm sends only the questions no rule decides to the LLM, and counts them', async () => {
    server.reset();
    const clf = (await classifiers.create('rules+llm', {}, {})) as RulesLlmClassifier;
    const ctx = { seed: 1, calls: [] as CallRecord[], llm: provider };
    const results = [];
    for (const [id, text] of [
      ['r1', 'When did I move to Berlin?'],
      ['r2', 'What is my current job?'],
      ['r3', 'Which restaurant had the best reviews?'],
    ] as const) {
      results.push((await clf.classify(q(id, text), ctx)) as Classification);
    }
    expect(results.map((r) => [r.type, r.route])).toEqual([
      ['temporal', 'rules'],
      ['update', 'rules'],
      ['multi-hop', 'llm'],
    ]);
    expect(clf.routeCounts).toEqual({ rules: 2, llm: 1 });
    expect(server.count('/v1/chat/completions')).toBe(1);
  });
});

describe("llm classifier, the plan's reply format (type name alone)", () => {
  it("sends the plan's instruction without a JSON schema and reads a bare name, English or Chinese, with first-token logprobs", async () => {
    const plain = await startFakeOpenAiServer({
      chat: (body) => {
        const prompt = body.messages[0]?.content ?? '';
        if (prompt.includes('用户查询')) {
          // 时序推理 vs 知识更新 on the first token: p(时) = e^-0.3, p(知) = e^-1.5, p(好) = e^-4 (names no type)
          return {
            text: '时序推理',
            logprobs: [
              {
                token: '时',
                logprob: -0.3,
                top: [
                  { token: '时', logprob: -0.3 },
                  { token: '知', logprob: -1.5 },
                  { token: '好', logprob: -4 },
                ],
              },
              { token: '序推理', logprob: 0, top: [] },
            ],
          };
        }
        return { text: 'knowledge_update' };
      },
    });
    const dir = await mkdtemp(join(tmpdir(), 'adaptmr-llm-plain-'));
    try {
      const llm = createLlmProvider(
        { cache: { mode: 'off', dir }, roles: { classifier: { baseURL: plain.baseURL, model: 'm' } } },
        {},
      );
      const clf = await classifiers.create('llm', { reply: 'name' }, {});
      const zh = (await clf.classify(q('z', '我是先换的工作还是先搬的家？'), {
        seed: 1,
        calls: [],
        llm,
      })) as Classification;
      expect(zh.type).toBe('temporal');
      expect(zh.source).toBe('logprobs');
      const z = Math.exp(-0.3) + Math.exp(-1.5);
      expect(zh.probs.temporal).toBeCloseTo(Math.exp(-0.3) / z, 12);
      expect(zh.probs.update).toBeCloseTo(Math.exp(-1.5) / z, 12);
      const zhBody = plain.requests[0]?.body as ChatRequestBody;
      expect(zhBody.response_format).toBeUndefined();
      expect(zhBody.messages[0]?.content).toMatch(/请只返回类型名称（如 factual_extraction），不需要解释。$/u);
      const en = (await clf.classify(q('e', 'Where do I live now?'), { seed: 1, calls: [], llm })) as Classification;
      expect(en.type).toBe('update');
      expect((plain.requests[1]!.body as ChatRequestBody).messages[0]?.content).toMatch(
        /Reply with only the type name/u,
      );
    } finally {
      await plain.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
