// The DuckDB embedding cache: a rerun embeds nothing (zero calls reach the loopback server), vectors read back
// bit-identical, concurrent identical texts are embedded once, and a file locked by another process falls back
// to an in-memory cache instead of failing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Embedder } from '../core/interfaces.ts';
import { createOpenAIEmbedder } from './embedders/openai.ts';
import { embedders } from './embedders/registry.ts';
import { CachedEmbedder, EMBEDDINGS_DB_FILE, MemoryEmbeddingCache, openEmbeddingCache } from './embedding-cache.ts';
import { holdDuckDbLock } from '../store/testing/lock-holder.ts';
import { embeddingRequests, startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';

const KEY_ENV = 'ADAPTMR_TEST_CACHE_KEY';
let server: FakeOpenAiServer;
beforeAll(async () => {
  process.env[KEY_ENV] = 'sk-cache-test';
  server = await startFakeOpenAiServer();
});
afterAll(async () => {
  await server.close();
  delete process.env[KEY_ENV];
});

const texts = [
  'I adopted a cat named Luna',
  'my sister lives in Boston',
  'I adopted a cat named Luna',
  'we met in 2019',
];
const newEmbedder = () =>
  createOpenAIEmbedder({ baseURL: server.baseURL, model: 'fake', dimensions: 16, apiKeyEnv: KEY_ENV });

describe('embedding cache (DuckDB)', () => {
  it('a rerun embeds nothing and returns the same vectors', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'emb-cache-'));
    const first = await openEmbeddingCache({ cacheDir });
    expect(first.kind).toBe('duckdb');
    const cold = new CachedEmbedder(await newEmbedder(), first);
    const before = embeddingRequests(server).length;
    const v1 = await cold.embed(texts);
    expect(cold.stats).toEqual({ hits: 0, misses: 3 }); // the repeated text is embedded once
    expect(
      embeddingRequests(server)
        .slice(before)
        .flatMap((r) => r.input),
    ).toHaveLength(3);
    await first.close();

    const second = await openEmbeddingCache({ cacheDir });
    const warm = new CachedEmbedder(await newEmbedder(), second);
    const mid = embeddingRequests(server).length;
    const v2 = await warm.embed(texts);
    expect(embeddingRequests(server).length - mid).toBe(0);
    expect(warm.stats).toEqual({ hits: 3, misses: 0 });
    v2.forEach((v, i) => expect([...v]).toEqual([...v1[i]!]));
    // A different model id shares nothing.
    const other = new CachedEmbedder(
      {
        ...(await newEmbedder()),
        id: 'other-model',
        dim: 16,
        embed: (t) => Promise.resolve(t.map(() => new Float32Array(16))),
      },
      second,
    );
    await other.embed(texts.slice(0, 1));
    expect(other.stats).toEqual({ hits: 0, misses: 1 });
    await second.close();
  });

  it('concurrent calls with the same text embed it once', async () => {
    let calls = 0;
    const inner: Embedder = {
      id: 'counting',
      dim: 2,
      embed: async (t) => {
        calls += t.length;
        await new Promise((r) => setTimeout(r, 20));
        return t.map(() => Float32Array.of(1, 0));
      },
    };
    const cached = new CachedEmbedder(inner, new MemoryEmbeddingCache());
    await Promise.all([cached.embed(['x', 'y']), cached.embed(['x']), cached.embed(['y', 'x'])]);
    expect(calls).toBe(2);
  });

  it('falls back to memory with a warning when another process holds the file', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'emb-lock-'));
    const path = join(cacheDir, EMBEDDINGS_DB_FILE);
    const holder = await holdDuckDbLock(path);
    try {
      const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const cache = await openEmbeddingCache({ path });
      const warning = warn.mock.calls.map((c) => String(c[0])).join('');
      warn.mockRestore();
      expect(cache.kind).toBe('memory');
      expect(warning).toMatch(/in use by another process/);
      const cached = new CachedEmbedder(await newEmbedder(), cache);
      expect(await cached.embed(['still works'])).toHaveLength(1);
    } finally {
      holder.kill();
    }
  });

  it('the registry wraps openai in the cache by default, and wink-sif only when asked', async () => {
    const cache = new MemoryEmbeddingCache();
    const o = await embedders.create(
      'openai',
      { baseURL: server.baseURL, model: 'fake', dimensions: 8, apiKeyEnv: KEY_ENV },
      { cache },
    );
    expect(o).toBeInstanceOf(CachedEmbedder);
    const w = await embedders.create('wink-sif', {}, { cache });
    expect(w).not.toBeInstanceOf(CachedEmbedder);
    const wc = await embedders.create('wink-sif', { cache: true }, { cache });
    expect(wc).toBeInstanceOf(CachedEmbedder);
  });
});
