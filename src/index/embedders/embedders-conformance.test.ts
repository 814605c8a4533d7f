/**
 * The conformance suite every registered embedder runs (a new embedder gets it by registering): unit-length vectors of
 * the declared `dim`, one per text in input order, deterministic, a stable `id` that names the model, and — through the
 * run's embedding cache — vectors keyed by that id (two embedders never share cached vectors). Chinese and English
 * texts both. Remote embedders talk to a loopback OpenAI-compatible server (OPENAI_BASE_URL / OPENAI_API_KEY).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../core/interfaces.ts';
import {
  bagOfWordsVector,
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../../llm/testing/fake-openai-server.ts';
import { CachedEmbedder, MemoryEmbeddingCache } from '../embedding-cache.ts';
import { embedders } from './registry.ts';

const TEXTS = [
  'I have a cat named Snowball.',
  'I moved to Xihu District in Hangzhou.',
  'Recommend a Japanese restaurant in Hangzhou.',
];
const ZH = ['我有一只叫雪球的猫。', '我搬到了杭州西湖区。'];

let server: FakeOpenAiServer;
const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
beforeAll(async () => {
  server = await startFakeOpenAiServer({ embed: bagOfWordsVector });
  process.env.OPENAI_BASE_URL = server.baseURL;
  process.env.OPENAI_API_KEY = 'sk-conformance';
});
afterAll(async () => {
  await server.close();
  if (saved.base === undefined) delete process.env.OPENAI_BASE_URL;
  else process.env.OPENAI_BASE_URL = saved.base;
  if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved.key;
});

const variants = embedders
  .list()
  .flatMap((e) => (e.examples ?? [{ label: 'defaults', options: {} }]).map((ex) => ({ name: e.name, ...ex })));

const norm = (v: Float32Array): number => Math.hypot(...v);

describe.each(variants)('embedder $name ($label)', (v) => {
  async function build(): Promise<Embedder> {
    return embedders.create(v.name, v.options, {});
  }

  it.skipIf(v.skip !== undefined)('unit vectors of dim, in order, deterministic; English and Chinese', async () => {
    const e = await build();
    expect(e.id).toMatch(/\S/);
    expect(e.dim).toBeGreaterThan(0);
    const texts = [...TEXTS, ...ZH];
    const a = await e.embed(texts);
    expect(a).toHaveLength(texts.length);
    for (const [i, vec] of a.entries()) {
      expect(vec.length, texts[i]).toBe(e.dim);
      expect(vec.every(Number.isFinite), texts[i]).toBe(true);
      const n = norm(vec);
      // A text the embedder cannot represent may come back as the zero vector (counted and warned by the embedder);
      // anything else is unit length.
      if (n !== 0) expect(n, texts[i]).toBeCloseTo(1, 5);
    }
    for (const [i, vec] of a.slice(0, TEXTS.length).entries()) expect(norm(vec), TEXTS[i]).toBeGreaterThan(0);
    const reversed = await e.embed([...texts].reverse());
    expect(reversed.reverse().map((x) => [...x])).toEqual(a.map((x) => [...x]));
    expect((await e.embed([])).length).toBe(0);
  });

  it.skipIf(v.skip !== undefined)('the cache keys vectors by embedder id', async () => {
    const e = await build();
    const cache = new MemoryEmbeddingCache();
    const other: Embedder = {
      id: `${e.id}#other`,
      dim: e.dim,
      embed: async (t) => t.map(() => Float32Array.from({ length: e.dim }, (_, i) => (i === 0 ? 1 : 0))),
    };
    const cached = new CachedEmbedder(e, cache);
    const first = await cached.embed(TEXTS);
    const fromOther = await new CachedEmbedder(other, cache).embed(TEXTS);
    expect(fromOther.map((x) => x[0])).toEqual([1, 1, 1]);
    const again = await cached.embed(TEXTS);
    expect(again.map((x) => [...x])).toEqual(first.map((x) => [...x]));
    expect(cached.stats.hits).toBe(TEXTS.length);
  });
});
