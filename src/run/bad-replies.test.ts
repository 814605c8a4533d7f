/**
 * A bad reply is an error, not a result: embeddings that decode to NaN, to the wrong dimension or to zero vectors; an
 * empty chat reply; classifier probabilities that are NaN. Each is retried like a failed call, then surfaces as an
 * error (an error row in a run), and nothing of it is cached.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Classifier } from '../core/interfaces.ts';
import { ADAPT_TYPES, type AdaptType } from '../core/types.ts';
import { CachedEmbedder, MemoryEmbeddingCache } from '../index/embedding-cache.ts';
import { createOpenAIEmbedder } from '../index/embedders/openai.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { createLlmProvider } from '../llm/index.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { createAdaptmrMethod, AdaptmrOptionsSchema } from '../routing/adaptmr-method.ts';
import { frozenQuery, PLAN_HAYSTACK } from '../strategies/testing/fixtures.ts';

let server: FakeOpenAiServer;
let mode: 'nan' | 'dim' | 'zero' | 'ok' = 'ok';
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-bad-replies-'));
beforeAll(async () => {
  server = await startFakeOpenAiServer({
    embed: (_text, dim) => {
      const v: number[] = Array.from({ length: dim }, (_, i) => (i === 0 ? 1 : 0));
      if (mode === 'nan') v[1] = Number.NaN;
      if (mode === 'zero') v.fill(0);
      return mode === 'dim' ? v.slice(0, dim - 1) : v;
    },
    chat: () => ({ text: '   ' }),
  });
  process.env.ADAPTMR_BAD_REPLY_KEY = 'sk-bad-reply-test';
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('bad replies are errors', () => {
  it.each(['nan', 'dim', 'zero'] as const)(
    'embeddings that decode to %s vectors: retried, thrown, never cached',
    async (m) => {
      mode = m;
      const inner = await createOpenAIEmbedder({
        baseURL: server.baseURL,
        model: 'e',
        dimensions: 4,
        apiKeyEnv: 'ADAPTMR_BAD_REPLY_KEY',
        maxRetries: 2,
      });
      const cache = new MemoryEmbeddingCache();
      const embedder = new CachedEmbedder(inner, cache);
      const before = server.requests.length;
      await expect(embedder.embed(['I have a cat.'])).rejects.toThrow(/bad embedding reply/);
      expect(server.requests.length - before).toBe(3);
      mode = 'ok';
      const [v] = await embedder.embed(['I have a cat.']);
      expect(v![0]).toBe(1);
      expect(embedder.stats.hits).toBe(0);
    },
  );

  it('an empty chat reply is retried and fails; nothing is cached', async () => {
    const llm = createLlmProvider(
      {
        cache: { mode: 'read-write', dir },
        maxRetries: 1,
        retryBaseMs: 1,
        roles: { reader: { baseURL: server.baseURL, model: 'r' } },
      },
      {},
    );
    await expect(
      llm.forRole('reader').chat({ messages: [{ role: 'user', content: 'hi' }] }, { stage: 'reader', calls: [] }),
    ).rejects.toThrow(/empty/);
    const files = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.json'));
    expect(files).toEqual([]);
  });

  it('NaN classifier probabilities make the question an error instead of routing it', async () => {
    const nan: Classifier = {
      name: 'corrupt',
      classify: async () => ({
        type: 'factual' as AdaptType,
        probs: Object.fromEntries(ADAPT_TYPES.map((t) => [t, Number.NaN])) as Record<AdaptType, number>,
      }),
    };
    const m = await createAdaptmrMethod(
      AdaptmrOptionsSchema.parse({ router: { kind: 'fusion' } }),
      { id: 'a', k: 3 },
      nan,
    );
    const index = createMemoryIndex(
      PLAN_HAYSTACK,
      { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true },
      createWinkSifEmbedder(),
    );
    await expect(m.run(frozenQuery('Where do I live now?'), index, { seed: 1, calls: [] })).rejects.toThrow(
      /unusable probabilities \(probability of factual is NaN\)/,
    );
  });
});
