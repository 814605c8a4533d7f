/**
 * Cache keys name the whole endpoint: two OpenAI-compatible endpoints on one host and port that differ
 * only in their path (`…/a/v1`, `…/b/v1`: one loopback server answering different vectors and replies per path)
 * never share embedding-cache vectors or LLM-cache replies; a trailing slash or upper-case host is the same
 * endpoint (a cache hit, no request); credentials in a URL are never part of a key; OpenAI's default endpoint keeps
 * the id it had, so existing caches stay valid.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseEndpoint } from '../../core/http-url.ts';
import { createLlmProvider } from '../../llm/index.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { CachedEmbedder, MemoryEmbeddingCache } from '../embedding-cache.ts';
import { createOpenAIEmbedder } from './openai.ts';

const DIM = 4;
let server: FakeOpenAiServer;
let origin: string;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-endpoint-keys-'));

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    basePaths: ['/a/v1', '/b/v1'],
    // Endpoint a answers e1, endpoint b answers e2, whatever the text.
    embed: (_text, dim, base) => Array.from({ length: dim }, (_, i) => (i === (base === '/a/v1' ? 0 : 1) ? 1 : 0)),
    chat: (_body, base) => `reply from ${base}`,
  });
  origin = new URL(server.baseURL).origin;
  process.env.ADAPTMR_ENDPOINT_KEY = 'sk-endpoint-keys';
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const embedderAt = (baseURL: string) =>
  createOpenAIEmbedder({ baseURL, model: 'e', dimensions: DIM, apiKeyEnv: 'ADAPTMR_ENDPOINT_KEY', maxRetries: 0 });

describe('cache keys name the full endpoint', () => {
  it('embeddings: endpoints differing only in path keep their own vectors; a trailing slash is the same endpoint', async () => {
    const cache = new MemoryEmbeddingCache();
    const a = new CachedEmbedder(await embedderAt(`${origin}/a/v1`), cache);
    const b = new CachedEmbedder(await embedderAt(`${origin}/b/v1`), cache);
    expect(a.id).not.toBe(b.id);
    const [va] = await a.embed(['the same text']);
    const before = server.count('/b/v1/embeddings');
    const [vb] = await b.embed(['the same text']);
    expect(server.count('/b/v1/embeddings')).toBe(before + 1); // not served from a's entry
    expect([...va!]).toEqual([1, 0, 0, 0]);
    expect([...vb!]).toEqual([0, 1, 0, 0]);

    const sameAsA = new CachedEmbedder(
      await embedderAt(`${origin.toUpperCase().replace('HTTP:', 'http:')}/a/v1/`),
      cache,
    );
    expect(sameAsA.id).toBe(a.id);
    const requests = server.requests.length;
    expect([...(await sameAsA.embed(['the same text']))[0]!]).toEqual([1, 0, 0, 0]);
    expect(server.requests.length).toBe(requests);
  });

  it('LLM replies: endpoints differing only in path keep their own cache entries', async () => {
    const provider = (reader: string) =>
      createLlmProvider(
        {
          cache: { mode: 'read-write', dir },
          maxRetries: 0,
          roles: { reader: { baseURL: reader, model: 'm', apiKeyEnv: 'ADAPTMR_ENDPOINT_KEY' } },
        },
        process.env,
      );
    const ask = (reader: string) =>
      provider(reader)
        .forRole('reader')
        .chat({ messages: [{ role: 'user', content: 'Where do I live?' }] }, { stage: 'reader', calls: [] });
    expect((await ask(`${origin}/a/v1`)).text).toBe('reply from /a/v1');
    const b = await ask(`${origin}/b/v1`);
    expect(b).toMatchObject({ text: 'reply from /b/v1', cached: false });
    // Same endpoint written differently: served from the cache.
    expect(await ask(`${origin.replace('127.0.0.1', 'user:secret@127.0.0.1')}/a/v1/`)).toMatchObject({
      text: 'reply from /a/v1',
      cached: true,
    });
  });

  it('normalises scheme, host, default port and trailing slashes, and drops credentials', async () => {
    expect(normaliseEndpoint('HTTP://User:Secret@Example.COM:80/a/v1/')).toBe('http://example.com/a/v1');
    expect(normaliseEndpoint('https://example.com:8443/v1//')).toBe('https://example.com:8443/v1');
    expect((await embedderAt('http://user:secret@127.0.0.1:9/a/v1')).id).toBe('openai:http://127.0.0.1:9/a/v1/e@4');
    // OpenAI's default endpoint keeps its old id (existing embedding caches and calibrations stay valid).
    const openai = await createOpenAIEmbedder({
      baseURL: 'https://api.openai.com/v1/',
      apiKeyEnv: 'ADAPTMR_ENDPOINT_KEY',
    });
    expect(openai.id).toBe('openai:api.openai.com/text-embedding-3-small@1536');
  });
});
