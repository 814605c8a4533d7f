/**
 * Paid embedding requests are accounted: a shared embedder serves every method, so each request it sends
 * to the endpoint is recorded in llm_calls (stage `embed`) for the method that caused it, priced from the experiment's
 * price table — as many rows as the loopback endpoint answered, tokens equal to the usage it reported — and a rerun
 * whose vectors come from the embedding cache pays, and records, nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { queryFile } from '../store/testing/query-file.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-embed-calls-'));
let server: FakeOpenAiServer;
const cacheDir = process.env.ADAPTMR_CACHE_DIR;

beforeAll(async () => {
  server = await startFakeOpenAiServer();
  process.env.ADAPTMR_EMBED_CALLS_KEY = 'sk-embed-calls';
  process.env.ADAPTMR_CACHE_DIR = join(dir, 'cache');
});
afterAll(async () => {
  await server.close();
  if (cacheDir === undefined) delete process.env.ADAPTMR_CACHE_DIR;
  else process.env.ADAPTMR_CACHE_DIR = cacheDir;
  rmSync(dir, { recursive: true, force: true });
});

// Both methods embed (the query, and the haystack through the shared index); the price makes cost = tokens × 2e-6.
const yaml = (): string => `
name: embed-calls
datasets:
  - name: longmemeval-oracle
    limit: 3
embedder: { name: openai, options: { model: e, dimensions: 4, baseURL: ${server.baseURL}, apiKeyEnv: ADAPTMR_EMBED_CALLS_KEY, maxRetries: 0 } }
methods:
  - { id: embed, method: unified-embedding, k: 3 }
  - { id: factual, method: strategy, k: 3, options: { name: factual } }
llm:
  prices: { e: { inputPerMTok: 2, outputPerMTok: 0 } }
  roles: {}
`;

async function embedCalls(file: string): Promise<{ rows: number; tokens: number; cost: number; methods: number }> {
  const [r] = await queryFile<{ rows: number; tokens: number; cost: number; methods: number }>(
    file,
    `SELECT count(*)::INTEGER AS rows, coalesce(sum(prompt_tokens), 0)::INTEGER AS tokens, coalesce(sum(cost_usd), 0) AS cost,
            count(DISTINCT method)::INTEGER AS methods
     FROM llm_calls WHERE stage = 'embed' AND NOT cached`,
  );
  return r!;
}

describe('paid embedding requests', () => {
  it('are recorded once each, for the method that sent them, and a cached rerun records none', async () => {
    const embeddingRequests = () => server.requests.filter((r) => r.path.endsWith('/embeddings'));
    const usage = () =>
      embeddingRequests().reduce(
        (s, r) =>
          s +
          ((r.body as { input: string[] }).input ?? []).reduce((t, x) => t + x.split(/\s+/u).filter(Boolean).length, 0),
        0,
      );
    const first = join(dir, 'first.duckdb');
    await runExperiment(parseExperiment(yaml(), 'embed-calls.yaml'), { out: first, progress: false, log: () => {} });
    const sent = embeddingRequests().length;
    expect(sent).toBeGreaterThan(0);
    const recorded = await embedCalls(first);
    expect(recorded.rows).toBe(sent);
    expect(recorded.tokens).toBe(usage());
    expect(recorded.cost).toBeCloseTo(recorded.tokens * 2e-6, 12);

    // A new results file, the same embedding cache: no request, no paid row.
    const second = join(dir, 'second.duckdb');
    await runExperiment(parseExperiment(yaml(), 'embed-calls.yaml'), { out: second, progress: false, log: () => {} });
    expect(embeddingRequests().length).toBe(sent);
    expect((await embedCalls(second)).rows).toBe(0);
  });
});
