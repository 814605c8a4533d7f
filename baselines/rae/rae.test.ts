// rae: session dedup and the offline fusion on hand cases, reply parsing (English and Chinese), the sufficiency
// rounds (offline and LLM), the cross-encoder /v1/rerank endpoint over real HTTP, and a loopback rerun with no calls.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord, IndexSpec } from '../../src/core/interfaces.ts';
import type { Session } from '../../src/core/types.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../../src/index/index.ts';
import { createLlmProvider } from '../../src/llm/index.ts';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
} from '../../src/llm/testing/fake-openai-server.ts';
import { factoryContext, runTwice, smallLocomo, stages } from '../testing/loopback.ts';
import { parseQueries, parseRanking, rewritePrompt } from './prompts.ts';
import { createRae, missingEntities, RaeOptionsSchema, topSessions } from './rae-method.ts';
import { fusionScores } from './rerank.ts';

const SPEC: IndexSpec = { granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: false };
const mk = (id: string, day: number, texts: string[]): Session => {
  const at = `2023-05-${String(day).padStart(2, '0')}T10:00:00Z`;
  return {
    id,
    at,
    turns: texts.map((text, i) => ({
      id: `${id}#${i + 1}`,
      sessionId: id,
      index: i,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      text,
      at,
    })),
  };
};
const HAYSTACK = [
  mk('s1', 1, ['I adopted a cat named Luna.', 'Lovely name!']),
  mk('s2', 2, ['Luna loves tuna.', 'Cats often do.']),
  mk('s3', 3, ['My sister Ana lives in Lisbon.', 'Nice city.']),
];

describe('search, dedup and offline rerank', () => {
  it('keeps each session once, at its best unit, until top_k sessions', () => {
    const session = ['a', 'a', 'b', 'c', 'b'];
    expect(topSessions([0.9, 0.95, 0.5, 0.2, 0.7], (u) => session[u]!, 2)).toEqual([
      { unit: 1, score: 0.95 },
      { unit: 4, score: 0.7 },
    ]);
  });
  it('fuses min-max normalised BM25 and cosine with equal weights', () => {
    // bm25 [2, 4, 0] → [0.5, 1, 0]; cosine [0.5, 0.3, 0.9] → [1/3, 0, 1]
    const f = Array.from(fusionScores([2, 4, 0], [0.5, 0.3, 0.9]));
    expect(f[0]).toBeCloseTo((0.5 + 1 / 3) / 2, 12);
    expect(f[1]).toBeCloseTo(0.5, 12);
    expect(f[2]).toBeCloseTo(0.5, 12);
  });
  it('offline sufficiency: entities of the question missing from the top units (Chinese too)', () => {
    expect(missingEntities('Where does Ana live?', ['My sister Ana lives in Lisbon.'])).toEqual([]);
    expect(missingEntities('What does Luna eat?', ['I adopted a cat named Luna.'])).toContain('eat');
    expect(missingEntities('雪球喜欢吃什么？', ['我养了一只叫雪球的猫。'])).not.toContain('雪球');
  });
});

describe('reply parsing', () => {
  it('queries: object or list, deduplicated, capped; junk → none', () => {
    expect(parseQueries('{"queries": ["cat name", "cat name", "adopted pet"]}', 3)).toEqual([
      'cat name',
      'adopted pet',
    ]);
    expect(parseQueries('```json\n["猫的名字", "领养的宠物"]\n```', 1)).toEqual(['猫的名字']);
    expect(parseQueries('sure!', 3)).toBeUndefined();
  });
  it('ranking: 1-based numbers, invalid dropped, the rest appended in retrieval order', () => {
    expect(parseRanking('[3, 1, 9, 3]', 4)).toEqual([2, 0, 1, 3]);
    expect(parseRanking('{"ranking": ["[2]"]}', 2)).toEqual([1, 0]);
    expect(parseRanking('none', 3)).toBeUndefined();
  });
  it('the rewrite prompt keeps the question and asks for its language', () => {
    const p = rewritePrompt('我的猫叫什么名字？', '2023-06-01T00:00:00Z', 3)[0]!.content;
    expect(p).toContain('Question: 我的猫叫什么名字？');
    expect(p).toContain("in the question's language");
  });
});

describe('rae offline', () => {
  it('single round by default; a second round searches for the missing entities', async () => {
    const index = createMemoryIndex(HAYSTACK, SPEC, createWinkSifEmbedder());
    const q = { id: 'q', text: 'What does Luna like to eat, tuna?', askedAt: '2023-06-01T00:00:00Z' };
    const one = await createRae(RaeOptionsSchema.parse({}), factoryContext(SPEC, [], 2)).run(q, index, {
      seed: 1,
      calls: [],
    });
    expect(one.retrieval.notes).toMatchObject({ rounds: 1, queries: [q.text] });
    expect(new Set(one.retrieval.units.map((u) => u.unit.sessionId)).size).toBe(one.retrieval.units.length);
    expect(one.retrieval.context).toContain('2023/05/0');
    // Round 1 (one session per query) finds the sister; "cat", "luna", "meet" are missing, so round 2 searches for
    // them and adds the cat's session to the candidates.
    const q2 = { id: 'q2', text: 'Did my cat Luna meet my sister Ana?', askedAt: '2023-06-01T00:00:00Z' };
    const two = await createRae(
      RaeOptionsSchema.parse({ max_retrieval_rounds: 2, retrieval_top_k: 1 }),
      factoryContext(SPEC, [], 2),
    ).run(q2, index, { seed: 1, calls: [] });
    expect(two.retrieval.notes).toMatchObject({ rounds: 2, queries: [q2.text, 'cat luna meet'] });
    expect(two.retrieval.units.map((u) => u.unit.sessionId).sort()).toEqual(['s1', 's3']);
    const single = await createRae(RaeOptionsSchema.parse({ retrieval_top_k: 1 }), factoryContext(SPEC, [], 2)).run(
      q2,
      index,
      { seed: 1, calls: [] },
    );
    expect(single.retrieval.units.map((u) => u.unit.sessionId)).toEqual(['s3']);
  });
});

describe('rae against the loopback LLM server', () => {
  let server: FakeOpenAiServer;
  let sufficient = false;
  beforeAll(async () => {
    server = await startFakeOpenAiServer({
      chat: (body: ChatRequestBody) => {
        const prompt = body.messages.map((m) => m.content).join('\n');
        if (prompt.includes('Rewrite the question'))
          return {
            text: prompt.includes('Queries already tried')
              ? '{"queries": ["tuna"]}'
              : '{"queries": ["Luna cat", "adopted cat"]}',
          };
        if (prompt.startsWith('Rank the memories')) return { text: '[2, 1]' };
        if (prompt.includes('Summarize what they say'))
          return { text: 'On 2023/05/01 the user adopted a cat named Luna.' };
        if (prompt.includes('Is this enough')) return { text: sufficient ? 'YES' : 'NO' };
        return { text: 'unexpected prompt' };
      },
    });
  });
  afterAll(async () => server.close());

  function llm() {
    return createLlmProvider(
      { cache: { mode: 'off' }, maxRetries: 0, roles: { strategy: { baseURL: server.baseURL, model: 'fake' } } },
      {},
    );
  }

  it('rewrite → search → listwise rerank → summary; NO starts another round with new queries, YES stops', async () => {
    const index = createMemoryIndex(HAYSTACK, SPEC, createWinkSifEmbedder());
    const q = { id: 'q', text: 'What is my cat called?', askedAt: '2023-06-01T00:00:00Z' };
    const m = createRae(RaeOptionsSchema.parse({ max_retrieval_rounds: 2 }), factoryContext(SPEC, ['strategy'], 2));
    sufficient = false;
    const calls: CallRecord[] = [];
    const out = await m.run(q, index, { seed: 1, calls, llm: llm() });
    expect(out.retrieval.notes).toMatchObject({ rounds: 2, queries: [q.text, 'Luna cat', 'adopted cat', 'tuna'] });
    expect(
      ['query:rewrite', 'query:rerank', 'query:summary', 'query:sufficiency'].map((s) => stages(calls, s)),
    ).toEqual([2, 2, 2, 1]);
    expect(out.retrieval.context).toBe(
      '## Experience from Similar Conversations\nOn 2023/05/01 the user adopted a cat named Luna.',
    );
    // Listwise scores are (n − rank) / n over the 3 candidate sessions; the reply ranked candidate 2 first.
    const scores = out.retrieval.units.map((u) => u.score);
    expect(scores[0]).toBe(1);
    expect(scores[1]).toBeCloseTo(2 / 3, 12);
    sufficient = true;
    const c2: CallRecord[] = [];
    const once = await m.run(q, index, { seed: 1, calls: c2, llm: llm() });
    expect(once.retrieval.notes).toMatchObject({ rounds: 1 });
    expect(stages(c2, 'query:sufficiency')).toBe(1);
  });

  it('a rerun makes no calls (LoCoMo, cached client)', async () => {
    const { haystack, queries } = await smallLocomo(2);
    const r = await runTwice(
      server,
      () =>
        createRae(
          RaeOptionsSchema.parse({}),
          factoryContext({
            granularity: 'turn',
            roles: ['user', 'assistant'],
            includeCaptions: true,
            speakerPrefix: true,
          }),
        ),
      haystack,
      queries,
    );
    expect(r.firstRun.map((c) => stages(c, 'query:'))).toEqual([3, 3]); // rewrite, rerank, summary
    expect(r.firstRun.map((c) => stages(c, 'index:'))).toEqual([0, 0]);
    expect(r.rerunRequests).toBe(0);
  });
});

describe('rae with a cross-encoder /v1/rerank endpoint', () => {
  let http: Server;
  let baseURL = '';
  const seen: unknown[] = [];
  let huge = false;
  beforeAll(async () => {
    http = createServer((req, res) => {
      if (huge) {
        // A faulty server streaming more than the reply cap (4 MiB) with no content-length.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"results":[${'{"index":0,"relevance_score":1},'.repeat(160_000)}]}`);
        return;
      }
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { model: string; query: string; documents: string[]; top_n: number };
        seen.push({ path: req.url, authorization: req.headers.authorization, ...body });
        // Scores: documents mentioning "Lisbon" first, then by length (a deterministic stand-in for a cross-encoder).
        const results = body.documents.map((d, index) => ({
          index,
          relevance_score: (d.includes('Lisbon') ? 10 : 0) + 1 / d.length,
        }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'rerank-1', model: body.model, results, usage: { total_tokens: 42 } }));
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    baseURL = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => new Promise<void>((r) => http.close(() => r())));

  it('reranks with the endpoint and records the call', async () => {
    const index = createMemoryIndex(HAYSTACK, SPEC, createWinkSifEmbedder());
    const m = createRae(
      RaeOptionsSchema.parse({ rerankEndpoint: { baseURL, model: 'bge-reranker' } }),
      factoryContext(SPEC, [], 3),
    );
    const calls: CallRecord[] = [];
    const out = await m.run({ id: 'q', text: 'Where does my sister live?', askedAt: '2023-06-01T00:00:00Z' }, index, {
      seed: 1,
      calls,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      path: '/v1/rerank',
      model: 'bge-reranker',
      query: 'Where does my sister live?',
      top_n: 3,
    });
    expect(out.retrieval.units[0]!.unit.sessionId).toBe('s3');
    expect(calls).toEqual([
      expect.objectContaining({ stage: 'query:rerank', model: 'bge-reranker', promptTokens: 42 }),
    ]);
  });

  it('sends URL credentials as Basic auth, never in the URL or a message, and refuses a reply over the cap', async () => {
    const index = createMemoryIndex(HAYSTACK, SPEC, createWinkSifEmbedder());
    const withUser = baseURL.replace('http://', 'http://reader:s3cr%C3%A9t@');
    const m = createRae(
      RaeOptionsSchema.parse({ rerankEndpoint: { baseURL: withUser, model: 'bge-reranker' } }),
      factoryContext(SPEC, [], 3),
    );
    const query = { id: 'q', text: '我姐姐住在哪里?', askedAt: '2023-06-01T00:00:00Z' };
    seen.length = 0;
    await m.run(query, index, { seed: 1, calls: [] });
    expect(seen[0]).toMatchObject({
      path: '/v1/rerank',
      authorization: `Basic ${Buffer.from('reader:s3crét').toString('base64')}`,
    });
    huge = true;
    try {
      const calls: CallRecord[] = [];
      const err = await m.run(query, index, { seed: 1, calls }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toMatch(/rerank endpoint failed: .*reply cap/);
      expect(`${err?.message} ${JSON.stringify(calls)}`).not.toMatch(/s3cr|reader:/);
    } finally {
      huge = false;
    }
  });
});
