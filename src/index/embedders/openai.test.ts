// The OpenAI-compatible embedder against a loopback /v1/embeddings server speaking the real wire format (base64).
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bagOfWordsVector,
  embeddingRequests,
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../../llm/testing/fake-openai-server.ts';
import { createOpenAIEmbedder } from './openai.ts';
import { embedders } from './registry.ts';

const KEY_ENV = 'ADAPTMR_TEST_EMBEDDINGS_KEY';
let server: FakeOpenAiServer;

beforeAll(async () => {
  process.env[KEY_ENV] = 'sk-test-123';
  server = await startFakeOpenAiServer({ embeddingDim: 64, embed: bagOfWordsVector });
});
afterAll(async () => {
  await server.close();
  delete process.env[KEY_ENV];
});

function unit(v: readonly number[] | Float32Array): number[] {
  const n = Math.hypot(...v);
  return [...v].map((x) => x / n);
}

describe('openai embedder', () => {
  it('batches, decodes base64 float32 and normalises', async () => {
    const e = await createOpenAIEmbedder({
      baseURL: server.baseURL,
      model: 'fake-embed',
      dimensions: 32,
      batchSize: 2,
      apiKeyEnv: KEY_ENV,
    });
    const port = new URL(server.baseURL).port;
    expect(e.id).toBe(`openai:http://127.0.0.1:${port}/v1/fake-embed@32`); // the full endpoint (endpoint-keys.test.ts)
    const before = embeddingRequests(server).length;
    const texts = ['I adopted a cat', 'my dog is old', 'we went to Paris', 'cats and dogs', 'hello'];
    const vectors = await e.embed(texts);
    const sent = embeddingRequests(server).slice(before);
    expect(sent.map((r) => r.input)).toEqual([texts.slice(0, 2), texts.slice(2, 4), texts.slice(4)]);
    expect(sent.every((r) => r.encoding_format === 'base64' && r.dimensions === 32)).toBe(true);
    expect(server.requests.at(-1)?.authorization).toBe('Bearer sk-test-123');
    vectors.forEach((v, i) => {
      expect(v).toHaveLength(32);
      unit(bagOfWordsVector(texts[i]!, 32)).forEach((x, j) => expect(v[j]).toBeCloseTo(x, 6));
    });
    expect(e.stats).toMatchObject({ requests: 3, texts: 5 });
    expect(e.stats.promptTokens).toBeGreaterThan(0);
  });

  it('embeds empty texts to zero vectors without sending them', async () => {
    const e = await createOpenAIEmbedder({
      baseURL: server.baseURL,
      model: 'fake-embed',
      dimensions: 8,
      apiKeyEnv: KEY_ENV,
    });
    const before = embeddingRequests(server).length;
    const [empty, full] = await e.embed(['', 'cat']);
    expect([...empty!]).toEqual(new Array(8).fill(0));
    expect(Math.hypot(...full!)).toBeCloseTo(1, 6);
    expect(
      embeddingRequests(server)
        .slice(before)
        .map((r) => r.input),
    ).toEqual([['cat']]);
  });

  it('probes the dimension of an unknown model once at creation', async () => {
    const e = await createOpenAIEmbedder({ baseURL: server.baseURL, model: 'some-local-model', apiKeyEnv: KEY_ENV });
    expect(e.dim).toBe(64);
    expect(e.id).toMatch(/\/some-local-model@64$/);
  });

  it('retries a failed request (SDK maxRetries)', async () => {
    const flaky = await startFakeOpenAiServer();
    flaky.enqueueEmbeddings({ status: 500 });
    try {
      const e = await createOpenAIEmbedder({
        baseURL: flaky.baseURL,
        model: 'm',
        dimensions: 4,
        maxRetries: 2,
        apiKeyEnv: KEY_ENV,
      });
      const [v] = await e.embed(['retry me']);
      expect(v).toHaveLength(4);
      expect(embeddingRequests(flaky)).toHaveLength(2);
    } finally {
      await flaky.close();
    }
  });

  it('names the missing key variable without revealing any key', async () => {
    await expect(createOpenAIEmbedder({ baseURL: server.baseURL, apiKeyEnv: 'ADAPTMR_NO_SUCH_KEY' })).rejects.toThrow(
      /ADAPTMR_NO_SUCH_KEY is not set/,
    );
  });

  it('registry entry validates options strictly', async () => {
    expect(() => embedders.parseOptions('openai', { model: 'x', batchsize: 3 })).toThrow(/batchsize/);
    const e = await embedders.create(
      'openai',
      { baseURL: server.baseURL, model: 'fake', dimensions: 16, apiKeyEnv: KEY_ENV },
      {},
    );
    expect(e.id).toMatch(/\/fake@16$/);
    expect(JSON.stringify(e)).not.toContain('sk-test-123');
    expect(inspect(e, { depth: 10 })).not.toContain('sk-test-123');
  });
});
