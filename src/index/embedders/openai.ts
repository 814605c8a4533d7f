/**
 * Embeddings from any OpenAI-compatible `/embeddings` endpoint (OpenAI, vLLM, Ollama, llama.cpp server, …) through
 * the `openai` SDK. Texts are sent in batches; transient failures are retried by the SDK (`maxRetries`, exponential
 * backoff); vectors are asked for as base64 float32 (the SDK's own default wire format) and decoded here, with
 * JSON number arrays accepted too for servers that ignore `encoding_format`. Vectors are L2-normalised.
 *
 * The API key is read from the environment variable named by `apiKeyEnv` at creation and handed to the SDK only;
 * it is never logged, stored, or part of the id. The id — the embedding cache's key — is
 * `openai:<endpoint>/<model>@<dims>`, the endpoint being the full normalised base URL (src/core/http-url.ts), so two
 * endpoints on one host that differ only in their path never share vectors.
 */
import { recordInScope } from '../../core/call-scope.ts';
import type OpenAI from 'openai';
import { z } from 'zod';
import { HttpUrlSchema, normaliseEndpoint, splitUrlCredentials } from '../../core/http-url.ts';
import { formatZodError } from '../../core/registry.ts';
import { readSecret } from '../../core/secrets.ts';
import { EndpointError, InputError, errorMessage, oneLine } from '../../core/errors.ts';
import { InvalidReplyTextError, ReplyTooLargeError, cappedFetch } from '../../core/reply-limit.ts';
import type { Embedder } from '../../core/interfaces.ts';

export const OpenAIEmbedderOptionsSchema = z
  .object({
    model: z.string().min(1).default('text-embedding-3-small'),
    /** Default: env OPENAI_BASE_URL, else https://api.openai.com/v1 (as the SDK does). */
    baseURL: HttpUrlSchema.optional(),
    /** Output dimensions (models that support shortening, e.g. text-embedding-3-*); sent only when set. */
    dimensions: z.number().int().positive().optional(),
    /** Texts per request (OpenAI accepts up to 2048 inputs per request). */
    batchSize: z.number().int().positive().max(2048).default(128),
    /** Name of the env var holding the API key. */
    apiKeyEnv: z.string().min(1).default('OPENAI_API_KEY'),
    maxRetries: z.number().int().nonnegative().default(4),
    timeoutMs: z.number().int().positive().default(60_000),
    /**
     * Largest reply body read, in bytes (default 64 MiB: a batch of 2048 base64 vectors of 3072 dimensions is
     * ~34 MB); a longer one is cut off while it streams in (src/core/reply-limit.ts).
     */
    maxReplyBytes: z.number().int().positive().optional(),
    /** Store vectors in the DuckDB embedding cache (see embedding-cache.ts); on by default for paid APIs. */
    cache: z.boolean().default(true),
  })
  .strict();
export type OpenAIEmbedderOptions = z.input<typeof OpenAIEmbedderOptionsSchema>;

const EMBEDDINGS_MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** Native dimensions of well-known models, so the id is known without a probe request. */
const KNOWN_DIMS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  /** Requests sent and input texts embedded (for tests and cost accounting). */
  readonly stats = { requests: 0, texts: 0, promptTokens: 0 };
  /** A #private field: the client holds the key, so it must never show up in JSON.stringify or util.inspect. */
  readonly #client: OpenAI;

  private constructor(
    client: OpenAI,
    private readonly settings: z.output<typeof OpenAIEmbedderOptionsSchema>,
    readonly dim: number,
  ) {
    this.#client = client;
    this.id = `openai:${endpointId(client.baseURL)}/${settings.model}@${dim}`;
  }

  /**
   * Creates the embedder. When the dimension is neither given nor known for the model, one probe request finds it
   * (the id must name it, so vectors of different sizes never share a cache key).
   */
  static async create(options: OpenAIEmbedderOptions = {}): Promise<OpenAIEmbedder> {
    const parsed = OpenAIEmbedderOptionsSchema.safeParse(options);
    if (!parsed.success) throw new InputError(formatZodError(parsed.error), 'openai embedder options');
    const settings = parsed.data;
    const apiKey = readSecret(settings.apiKeyEnv);
    if (apiKey === undefined || apiKey === '') {
      throw new InputError(
        `environment variable ${settings.apiKeyEnv} is not set (servers that need no key accept any value)`,
        'openai embedder',
      );
    }
    // The SDK loads on first use, so runs without this embedder never import it.
    const { default: OpenAIClient } = await import('openai');
    // URL credentials (a basic-auth proxy) go in the Authorization header: fetch refuses a URL that carries them.
    const base = settings.baseURL ?? (process.env.OPENAI_BASE_URL || undefined);
    const endpoint = base === undefined ? undefined : splitUrlCredentials(base);
    const client = new OpenAIClient({
      apiKey,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
      ...(endpoint === undefined ? {} : { baseURL: endpoint.url }),
      ...(endpoint?.authorization !== undefined ? { defaultHeaders: { Authorization: endpoint.authorization } } : {}),
      fetch: cappedFetch(settings.maxReplyBytes ?? EMBEDDINGS_MAX_REPLY_BYTES, 'embedder option maxReplyBytes'),
    });
    let dim = settings.dimensions ?? KNOWN_DIMS[settings.model];
    if (dim === undefined) {
      const probe = new OpenAIEmbedder(client, settings, 0);
      let v: Float32Array | undefined;
      try {
        [v] = await probe.request(['dimension probe']);
      } catch (err) {
        // The start-up check: a rejected key, a server error or a reply of the wrong shape stops the run here, in
        // one line (the key is redacted by errorMessage), before any question is read.
        throw new EndpointError(
          `embeddings endpoint ${client.baseURL} (model ${settings.model}) failed the start-up check: ${oneLine(errorMessage(err))}`,
        );
      }
      dim = v?.length ?? 0;
      if (dim === 0) throw new InputError(`model ${settings.model} returned an empty vector`, client.baseURL);
    }
    return new OpenAIEmbedder(client, settings, dim);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.settings.batchSize) {
      const vectors = await this.requestValid(texts.slice(i, i + this.settings.batchSize));
      for (const v of vectors) {
        if (this.dim !== 0 && v.length !== this.dim) {
          throw new InputError(`expected ${this.dim}-d vectors, got ${v.length}`, this.id);
        }
        out.push(normalise(v));
      }
    }
    return out;
  }

  /**
   * A reply that decodes to unusable vectors (NaN/Infinity, the wrong dimension, a zero vector for a non-empty text)
   * is an error, not a result: retried like a failed call, then thrown — so it becomes an error row and is never
   * cached (the cache stores only what `embed` returns).
   */
  private async requestValid(input: string[]): Promise<Float32Array[]> {
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.settings.maxRetries; attempt++) {
      const vectors = await this.request(input);
      const problem = invalidVector(vectors, input, this.dim);
      if (problem === undefined) return vectors;
      lastError = new InputError(`bad embedding reply: ${problem}`, this.id);
    }
    throw lastError;
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    // Empty strings are rejected by OpenAI ("input cannot be an empty string"); they embed to the zero vector.
    const sendIdx: number[] = [];
    input.forEach((t, i) => {
      if (t.trim() !== '') sendIdx.push(i);
    });
    const result: Float32Array[] = input.map(() => new Float32Array(this.dim));
    if (sendIdx.length === 0) return result;
    const t0 = performance.now();
    const response = await this.#client.embeddings
      .create({
        model: this.settings.model,
        input: sendIdx.map((i) => input[i]!),
        encoding_format: 'base64',
        ...(this.settings.dimensions === undefined ? {} : { dimensions: this.settings.dimensions }),
      })
      .catch((err: unknown) => {
        // The SDK reports a reply cut off at the size cap as a connection error; say what happened.
        const cause = err instanceof Error ? err.cause : undefined;
        throw cause instanceof ReplyTooLargeError || cause instanceof InvalidReplyTextError
          ? new InputError(cause.message, this.id)
          : err;
      });
    this.stats.requests++;
    this.stats.texts += sendIdx.length;
    this.stats.promptTokens += response.usage?.prompt_tokens ?? 0;
    // A paid request (the cache in front of this embedder serves the rest): accounted to the method or index
    // preparation that sent it, durably (core/call-scope.ts), even if its reply is then refused below.
    await recordInScope({
      stage: 'embed',
      model: this.settings.model,
      promptTokens: response.usage?.prompt_tokens ?? 0,
      completionTokens: 0,
      latencyMs: performance.now() - t0,
      cached: false,
    });
    if (!Array.isArray((response as { data?: unknown }).data)) {
      throw new InputError('reply is not an embeddings list (no `data` array)', this.#client.baseURL);
    }
    if (response.data.length !== sendIdx.length) {
      throw new InputError(
        `sent ${sendIdx.length} inputs, got ${response.data.length} embeddings`,
        this.#client.baseURL,
      );
    }
    for (const item of response.data) {
      const target = sendIdx[item.index];
      if (target === undefined)
        throw new InputError(`embedding index ${item.index} out of range`, this.#client.baseURL);
      result[target] = decode(item.embedding as unknown);
    }
    return result;
  }
}

/** Why a reply's vectors cannot be used, or undefined when every one is finite, of the dimension, non-zero. */
export function invalidVector(
  vectors: readonly Float32Array[],
  input: readonly string[],
  dim: number,
): string | undefined {
  for (const [i, v] of vectors.entries()) {
    if (dim !== 0 && v.length !== dim) return `vector ${i} has ${v.length} dimensions, expected ${dim}`;
    let norm = 0;
    for (let j = 0; j < v.length; j++) {
      const x = v[j]!;
      if (!Number.isFinite(x)) return `vector ${i} holds ${x}`;
      norm += x * x;
    }
    if (norm === 0 && (input[i] ?? '').trim() !== '') return `vector ${i} is all zeros for a non-empty text`;
  }
  return undefined;
}

/** base64 float32 little-endian (what `encoding_format: 'base64'` returns) or a JSON number array. */
function decode(embedding: unknown): Float32Array {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length % 4 !== 0) throw new InputError(`base64 embedding of ${bytes.length} bytes is not float32`);
    const v = new Float32Array(bytes.length / 4);
    for (let i = 0; i < v.length; i++) v[i] = bytes.readFloatLE(i * 4);
    return v;
  }
  const parsed = z.array(z.number()).safeParse(embedding);
  if (!parsed.success) throw new InputError('embedding is neither a base64 string nor a number array');
  return Float32Array.from(parsed.data);
}

/**
 * The endpoint part of the id. `https://<host>/v1` (OpenAI's own default, and most hosted APIs) keeps the host-only
 * form ids had before the path was keyed, so existing caches and calibrations of those endpoints stay valid; any
 * other URL (http, another path) is named in full — an older cache of such an endpoint misses once.
 */
function endpointId(baseURL: string): string {
  const normal = normaliseEndpoint(baseURL);
  const host = new URL(normal).host;
  return normal === `https://${host}/v1` ? host : normal;
}

function normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let j = 0; j < v.length; j++) v[j]! *= inv;
  }
  return v;
}

export function createOpenAIEmbedder(options: OpenAIEmbedderOptions = {}): Promise<OpenAIEmbedder> {
  return OpenAIEmbedder.create(options);
}
