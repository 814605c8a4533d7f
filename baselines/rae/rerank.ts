/**
 * The pipeline's non-LLM rerankers (step ④ of its source design, baselines/rae/README.md): a cross-encoder behind a
 * `/v1/rerank` endpoint (the source's `reranker.py` calls vLLM's; the same wire format is served by vLLM, Jina, TEI's
 * Cohere-compatible route:
 * request `{model, query, documents, top_n}`, reply `{results: [{index, relevance_score}], usage?}`), and the
 * offline stand-in: BM25 and cosine over the candidates, each min-max normalised, averaged.
 *
 * The endpoint call is recorded as a CallRecord (stage `query:rerank`). It is not cached by the LLM cache; a rerun
 * calls the endpoint again (documented in README.md).
 */
import { z } from 'zod';
import { errorMessage, InputError } from '../../src/core/errors.ts';
import { recordCall } from '../../src/core/calls.ts';
import { endpointAuth } from '../../src/core/http-url.ts';
import { DEFAULT_MAX_REPLY_BYTES, readBodyCapped, replyText } from '../../src/core/reply-limit.ts';
import type { Ctx } from '../../src/core/interfaces.ts';
import { minMax } from '../llm-mode.ts';

export const RerankEndpointSchema = z
  .object({
    /** e.g. `http://127.0.0.1:8002/v1`; the request goes to `<baseURL>/rerank`. */
    baseURL: z.string().url(),
    model: z.string(),
    /** Environment variable holding the bearer key (never stored). */
    apiKeyEnv: z.string().optional(),
    timeoutMs: z.number().int().positive().default(30_000),
  })
  .strict();
export type RerankEndpoint = z.output<typeof RerankEndpointSchema>;

const ReplySchema = z.object({
  results: z.array(z.object({ index: z.number().int().nonnegative(), relevance_score: z.number() })),
  usage: z.object({ total_tokens: z.number().optional(), prompt_tokens: z.number().optional() }).partial().optional(),
});

/** Relevance score per document (aligned with `documents`) from the cross-encoder endpoint. */
export async function crossEncoderScores(
  endpoint: RerankEndpoint,
  query: string,
  documents: readonly string[],
  ctx: Ctx,
  where: string,
): Promise<Float64Array> {
  let key: string | undefined;
  if (endpoint.apiKeyEnv) {
    key = process.env[endpoint.apiKeyEnv];
    if (key === undefined || key === '')
      throw new InputError(`rerank endpoint key variable ${endpoint.apiKeyEnv} is not set`, where);
  }
  // Credentials in the URL (a basic-auth proxy) go into the Authorization header; the URL in messages has none.
  const auth = endpointAuth(`${endpoint.baseURL.replace(/\/+$/u, '')}/rerank`, key);
  const url = auth.url;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...auth.headers };
  const t0 = performance.now();
  const record = (promptTokens: number, error?: string): Promise<void> =>
    recordCall(ctx.calls, {
      stage: 'query:rerank',
      model: endpoint.model,
      promptTokens,
      completionTokens: 0,
      latencyMs: performance.now() - t0,
      cached: false,
      costUsd: 0,
      ...(error ? { error } : {}),
    });
  let body: unknown;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: endpoint.model, query, documents, top_n: documents.length }),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}`);
    // Capped and strict UTF-8 like every other reply (a faulty server cannot fill memory); bad JSON fails below.
    const bytes = await readBodyCapped(res, DEFAULT_MAX_REPLY_BYTES, 'the rerank reply cap');
    body = JSON.parse(replyText(bytes));
  } catch (err) {
    await record(0, errorMessage(err));
    throw new Error(`${where}: rerank endpoint failed: ${errorMessage(err)}`);
  }
  const parsed = ReplySchema.safeParse(body);
  if (!parsed.success || parsed.data.results.some((r) => r.index >= documents.length)) {
    await record(0, 'malformed rerank reply');
    throw new Error(`${where}: rerank endpoint ${url} replied without a valid results list`);
  }
  await record(parsed.data.usage?.total_tokens ?? parsed.data.usage?.prompt_tokens ?? 0);
  const scores = new Float64Array(documents.length).fill(-Infinity);
  for (const r of parsed.data.results) scores[r.index] = r.relevance_score;
  return scores;
}

/** Offline rerank: (minmax(BM25) + minmax(cosine)) / 2 over the candidates. */
export function fusionScores(bm25: ArrayLike<number>, cosine: ArrayLike<number>): Float64Array {
  const a = minMax(bm25);
  const b = minMax(cosine);
  return a.map((x, i) => (x + b[i]!) / 2);
}
