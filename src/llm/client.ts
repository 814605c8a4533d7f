/**
 * One OpenAI-compatible chat client per role (reader, judge, classifier, strategy), implementing `LlmClient`
 * (src/core/llm.ts) through the `openai` SDK. Every call goes: cache → in-flight de-duplication → scheduler
 * (concurrency + requests/minute) → HTTP with retries → one `CallRecord` in `meta.calls` (a paid one committed to the
 * results file first when the list has a sink: src/core/calls.ts) → cache write.
 *
 * - The SDK's own retries are off (`maxRetries: 0`): this layer retries, so it can count attempts, honour the
 *   experiment's limits, and retry replies the SDK accepts but we cannot use.
 * - A call that stays broken throws `LlmCallError` after recording an error `CallRecord`; the runner writes the
 *   error on the question's row and the run goes on. Errors are never cached.
 * - Structured output: `json-schema` sends `response_format: json_schema`; if the endpoint answers 400 to that, the
 *   client falls back (for the rest of the run) to `prompt` mode, which appends the schema to the last message and
 *   parses the reply tolerantly — only for a 400 whose message names response_format / json_schema, so an
 *   unrelated 400 (a context-length error, say) does not switch modes. In every mode a reply that holds no JSON counts as malformed and is retried.
 * - Accounting: tokens from the API's `usage`, else counted with o200k_base (src/llm/tokens.ts); cost from the
 *   price table; latency is the call's wall time as the caller saw it. A cache hit records `cached: true`, its own
 *   (tiny) latency, the original token counts and the original call's cost — the cost of the method, stable across
 *   reruns; sum `costUsd` where `!cached` for the money actually spent by this run. Prompt tokens the provider
 *   read from its prompt cache (`usage.prompt_tokens_details.cached_tokens`) are recorded (`cachedTokens`) and priced
 *   at the cached-input price; a request carries `prompt_cache_key` when the caller names one (the haystack).
 * - Batch API (`shared.batch`, src/run/spend/batch-stage.ts): an uncached request of a batched role is handed to the batch
 *   queue instead of being sent, and the call throws `PostponedError('batch')`; the run folds the batch's replies into
 *   this cache and asks again, when it is a cache hit.
 * - Budget (`shared.budget`, src/run/spend/budget.ts): before a request is sent its worst-case cost (prompt tokens counted,
 *   the full output limit) is reserved; a request the budget cannot cover is not sent (`PostponedError('budget')`).
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import { ReplyTooLargeError } from '../core/reply-limit.ts';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { recordCall, type CallRecord } from '../core/calls.ts';
import type { ChatMessage, ChatRequest, ChatResult, LlmClient, LlmRole, TokenLogprob } from '../core/llm.ts';
import { errorMessage, isPostponed, oneLine, PostponedError } from '../core/errors.ts';
import { normaliseEndpoint, splitUrlCredentials } from '../core/http-url.ts';
import { type CacheKeyMaterial, type CachedReply, cacheKey, type LlmCache } from './cache.ts';
import type { Price, StructuredOutputMode } from './config.ts';
import { callCostUsd } from './cost.ts';
import type { BatchQueue, SpendGuard } from './spend.ts';
import { LlmCallError, MalformedReplyError, redact } from './errors.ts';
import { parseJsonReply } from './json-reply.ts';
import { usageCounts } from './usage.ts';
import { firstLoneSurrogate } from '../core/utf8.ts';
import { backoffMs, httpStatus, isRetryable, sleep } from './retry.ts';
import type { FetchLike } from './http/node-fetch.ts';
import type { Scheduler } from './scheduler.ts';
import { countChatTokens, countTokens } from './tokens.ts';

export interface ClientSettings {
  role: LlmRole;
  baseURL: string;
  model: string;
  /** Resolved key value; held in memory only, sent in the Authorization header, never hashed or stored. */
  apiKey: string;
  temperature?: number;
  maxTokens?: number;
  structuredOutput: StructuredOutputMode;
  maxTokensParam: 'max_tokens' | 'max_completion_tokens';
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  prices: Readonly<Record<string, Price>>;
}

/** Shared by every client of one provider. */
export interface ClientShared {
  cache: LlmCache;
  scheduler: Scheduler;
  inflight: Map<string, Promise<CachedReply>>;
  stats: LlmStats;
  /** The connection pool every client of the provider sends through (src/llm/http/node-fetch.ts); absent: global fetch. */
  fetch?: FetchLike;
  /** Where uncached requests of batched roles go instead of the network (set by the runner for `llm.batch`). */
  batch?: BatchQueue | undefined;
  /** Reserves each request's worst-case cost before it is sent (set by the runner for `llm.budgetUsd`). */
  budget?: SpendGuard | undefined;
}

export interface LlmStats {
  /** HTTP requests sent (attempts, including retries). */
  requests: number;
  cacheHits: number;
  /** Calls that waited on an identical call already in flight instead of sending their own. */
  deduplicated: number;
  errors: number;
}

export class OpenAiCompatibleClient implements LlmClient {
  readonly role: LlmRole;
  readonly model: string;
  private readonly sdk: OpenAI;
  private structuredOutput: StructuredOutputMode;

  constructor(
    private readonly settings: ClientSettings,
    private readonly shared: ClientShared,
  ) {
    this.role = settings.role;
    this.model = settings.model;
    this.structuredOutput = settings.structuredOutput;
    // Credentials in the URL (a basic-auth proxy) travel as the Authorization header, which the SDK's defaultHeaders
    // set over its Bearer header (src/core/http-url.ts `splitUrlCredentials`).
    const endpoint = splitUrlCredentials(settings.baseURL);
    this.sdk = new OpenAI({
      baseURL: endpoint.url,
      ...(endpoint.authorization !== undefined ? { defaultHeaders: { Authorization: endpoint.authorization } } : {}),
      apiKey: settings.apiKey,
      maxRetries: 0,
      timeout: settings.timeoutMs,
      logLevel: 'off',
      ...(shared.fetch ? { fetch: shared.fetch as NonNullable<ConstructorParameters<typeof OpenAI>[0]>['fetch'] } : {}),
    });
  }

  async chat(request: ChatRequest, meta: { stage: string; calls: CallRecord[] }): Promise<ChatResult> {
    const started = performance.now();
    let attempts = 0;
    let record: CallRecord | undefined;
    // The call's accounting record. A paid reply is recorded (durably, when `meta.calls` has a sink) before it is
    // cached: a kill between the two leaves a recorded call that the resume pays for again — never a cached reply
    // whose payment went unrecorded.
    const account = async (reply: CachedReply, cached: boolean): Promise<void> => {
      record = {
        stage: meta.stage,
        model: this.model,
        promptTokens: reply.promptTokens,
        completionTokens: reply.completionTokens,
        // Wall time of this call as the caller saw it (queueing, retries and backoff included); the cache entry
        // keeps the paid request's own HTTP latency.
        latencyMs: performance.now() - started,
        cached,
        costUsd: this.costOf(reply),
        ...(reply.batch ? { batch: true } : {}),
        ...(reply.cachedTokens !== undefined ? { cachedTokens: reply.cachedTokens } : {}),
      };
      await recordCall(meta.calls, record);
    };
    try {
      const { reply, cached } = await this.replyWithFallback(
        request,
        meta,
        () => attempts++,
        (reply) => account(reply, false),
        () => record !== undefined,
      );
      if (record === undefined) await account(reply, cached);
      const { latencyMs, costUsd } = record!;
      return chatResult(request, this.model, { reply, cached, latencyMs, costUsd });
    } catch (err) {
      throw await this.failure(err, meta, performance.now() - started, attempts, record !== undefined);
    }
  }

  /**
   * The reply, paid or cached. Endpoints without json_schema support answer 400: falls back to schema-in-prompt
   * once (unless a reply was already accounted for), then stays there.
   */
  private async replyWithFallback(
    request: ChatRequest,
    meta: { stage: string; calls: CallRecord[] },
    onAttempt: () => void,
    onPaid: (reply: CachedReply) => Promise<void>,
    recorded: () => boolean,
  ): Promise<{ reply: CachedReply; cached: boolean }> {
    try {
      return await this.fetchReply(request, meta, onAttempt, onPaid);
    } catch (err) {
      if (
        !(request.jsonSchema && this.structuredOutput === 'json-schema' && rejectsStructuredOutput(err) && !recorded())
      )
        throw err;
      this.structuredOutput = 'prompt';
      return this.fetchReply(request, meta, onAttempt, onPaid);
    }
  }

  /**
   * The error a failed call throws: a postponed call (queued for a batch, or over budget) as it is — no call to
   * record, nothing failed —, else counted, recorded unless a reply was already accounted for (paid, recorded, its
   * caching failed: its record stands), and given as an LlmCallError with the key redacted.
   */
  private async failure(
    err: unknown,
    meta: { stage: string; calls: CallRecord[] },
    latencyMs: number,
    attempts: number,
    recorded: boolean,
  ): Promise<unknown> {
    if (isPostponed(err)) return err;
    this.shared.stats.errors++;
    const message = redact(errorMessage(err), this.settings.apiKey);
    if (!recorded)
      await recordCall(meta.calls, {
        stage: meta.stage,
        model: this.model,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs,
        cached: false,
        costUsd: 0,
        error: message,
      });
    if (err instanceof LlmCallError) return err;
    return new LlmCallError(
      `${this.role} call (${meta.stage}, ${this.model}) failed after ${attempts} attempt(s): ${message}`,
      meta.stage,
      this.model,
      attempts,
      isRetryable(err),
    );
  }

  /** The cost of a reply at the price table: batch or list price, its provider-cached prompt tokens discounted. */
  costOf(reply: Pick<CachedReply, 'promptTokens' | 'completionTokens' | 'cachedTokens' | 'batch'>): number {
    return callCostUsd(this.settings.prices, this.model, reply.promptTokens, reply.completionTokens, {
      cachedTokens: reply.cachedTokens,
      batch: reply.batch,
    });
  }

  private batchSdk: OpenAI | undefined;

  /**
   * An SDK instance of this role's endpoint and key for the Batch API's files and batches endpoints. It sends through
   * Node's own fetch, not the role's connection pool: a file upload is a multipart stream, which the pool (built for
   * JSON bodies, src/llm/http/node-fetch.ts) does not carry; and an upload of up to 200 MB gets 10 minutes.
   */
  get api(): OpenAI {
    this.batchSdk ??= new OpenAI({
      baseURL: this.settings.baseURL,
      apiKey: this.settings.apiKey,
      maxRetries: 0,
      timeout: Math.max(this.settings.timeoutMs, 600_000),
      logLevel: 'off',
    });
    return this.batchSdk;
  }

  /**
   * The request exactly as `chat` would send it and its reply-cache key, without sending it (the batch queue and the
   * cost estimate build requests this way).
   */
  prepare(request: ChatRequest): {
    body: ChatCompletionCreateParamsNonStreaming;
    material: CacheKeyMaterial;
    key: string;
  } {
    const { body, material } = this.buildRequest(request);
    return { body, material, key: cacheKey(material) };
  }

  /** The most a request can cost: its prompt counted with the tokenizer, the whole output limit, no cache discount. */
  worstCaseCostUsd(body: ChatCompletionCreateParamsNonStreaming, batch = false): number {
    const limit = (body.max_tokens ?? body.max_completion_tokens ?? UNBOUNDED_OUTPUT_TOKENS) as number;
    return callCostUsd(this.settings.prices, this.model, countChatTokens(body.messages as ChatMessage[]), limit, {
      batch,
    });
  }

  /** Parses one reply body as `chat` does (for Batch API output lines): throws MalformedReplyError when unusable. */
  replyOf(
    completion: ChatCompletion,
    body: ChatCompletionCreateParamsNonStreaming,
    wantsJson: boolean,
    latencyMs: number,
  ): CachedReply {
    return toReply(completion, body, wantsJson, latencyMs);
  }

  /** Cache, then in-flight de-duplication, then the batch queue or the network. */
  private async fetchReply(
    request: ChatRequest,
    meta: { stage: string; calls: CallRecord[] },
    onAttempt: () => void,
    onPaid: (reply: CachedReply) => Promise<void>,
  ): Promise<{ reply: CachedReply; cached: boolean }> {
    const stage = meta.stage;
    const { body, material } = this.buildRequest(request);
    const key = cacheKey(material);
    const hit = await this.shared.cache.get(key);
    if (hit) {
      this.shared.stats.cacheHits++;
      return { reply: hit, cached: true };
    }
    const pending = this.shared.inflight.get(key);
    if (pending) {
      this.shared.stats.deduplicated++;
      return { reply: await pending, cached: true };
    }
    const wantsJson = request.jsonSchema !== undefined;
    const queue = this.shared.batch;
    if (queue?.wants(this.role, stage, key)) {
      queue.defer({ key, material, body, wantsJson, role: this.role, model: this.model, stage, calls: meta.calls });
      throw new PostponedError('batch', `${this.role} request (${stage}) queued for the Batch API`);
    }
    const promise = (async () => {
      const ticket = this.shared.budget?.reserve(
        this.worstCaseCostUsd(body),
        `${this.role} call (${stage}, ${this.model})`,
      );
      let reply: CachedReply;
      try {
        reply = await this.withRetries(body, wantsJson, stage, onAttempt);
      } catch (err) {
        if (ticket !== undefined) this.shared.budget!.settle(ticket, 0);
        throw err;
      }
      if (ticket !== undefined) this.shared.budget!.settle(ticket, this.costOf(reply));
      await onPaid(reply);
      await this.shared.cache.put(key, material, reply);
      return reply;
    })();
    this.shared.inflight.set(key, promise);
    try {
      return { reply: await promise, cached: false };
    } finally {
      this.shared.inflight.delete(key);
    }
  }

  private buildRequest(request: ChatRequest): {
    body: ChatCompletionCreateParamsNonStreaming;
    material: CacheKeyMaterial;
  } {
    let messages: ChatMessage[] = request.messages.map((m) => ({ role: m.role, content: m.content }));
    let responseFormat: ChatCompletionCreateParamsNonStreaming['response_format'];
    if (request.jsonSchema) {
      if (this.structuredOutput === 'json-schema') {
        responseFormat = {
          type: 'json_schema',
          json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: true },
        };
      } else if (this.structuredOutput === 'json-object') {
        responseFormat = { type: 'json_object' };
      } else {
        messages = withSchemaInstruction(messages, request.jsonSchema.schema);
      }
    }
    const temperature = request.temperature ?? this.settings.temperature;
    const maxTokens = request.maxTokens ?? this.settings.maxTokens;
    const body: ChatCompletionCreateParamsNonStreaming = { model: this.model, messages };
    if (temperature !== undefined) body.temperature = temperature;
    // Which parameter carries the limit does not change the reply, so it stays out of the cache key.
    if (maxTokens !== undefined) body[this.settings.maxTokensParam] = maxTokens;
    if (responseFormat) body.response_format = responseFormat;
    if (request.logprobs) {
      body.logprobs = true;
      body.top_logprobs = request.logprobs.top;
    }
    // Routing hint for the provider's prompt cache; the reply does not depend on it, so it is not in the cache key.
    if (request.promptCacheKey !== undefined) body.prompt_cache_key = request.promptCacheKey;
    const material: CacheKeyMaterial = {
      // The full normalised endpoint (scheme, host, port, path; no credentials): identical to the configured URL for
      // ordinary ones, so existing cache entries stay valid.
      baseURL: normaliseEndpoint(this.settings.baseURL),
      model: this.model,
      messages,
      temperature: temperature ?? null,
      maxTokens: maxTokens ?? null,
      responseFormat: responseFormat ?? null,
      logprobs: request.logprobs?.top ?? null,
      repeat: request.repeat ?? 0,
    };
    return { body, material };
  }

  private async withRetries(
    body: ChatCompletionCreateParamsNonStreaming,
    wantsJson: boolean,
    stage: string,
    onAttempt: () => void,
  ): Promise<CachedReply> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.shared.scheduler.run(async () => {
          onAttempt();
          this.shared.stats.requests++;
          const t0 = performance.now();
          const completion = await this.sdk.chat.completions.create(body);
          return toReply(completion, body, wantsJson, performance.now() - t0);
        });
      } catch (caught) {
        // The cap's own error, not the SDK's "Connection error." it is wrapped in (src/core/reply-limit.ts).
        const err =
          caught instanceof APIConnectionError && caught.cause instanceof ReplyTooLargeError ? caught.cause : caught;
        if (!isRetryable(err) || attempt >= this.settings.maxRetries) {
          if (!isRetryable(err)) throw err;
          throw new LlmCallError(
            `${this.role} call (${stage}, ${this.model}) still failing after ${attempt + 1} attempt(s): ` +
              redact(describe(err), this.settings.apiKey),
            stage,
            this.model,
            attempt + 1,
            true,
          );
        }
        await sleep(backoffMs(attempt, this.settings.retryBaseMs, err));
      }
    }
  }
}

/**
 * The output limit assumed for a request that sets none, when reserving its worst-case cost against the budget: the
 * largest completion the project's OpenAI chat models return (gpt-4o / gpt-4o-mini: 16,384 tokens).
 */
export const UNBOUNDED_OUTPUT_TOKENS = 16_384;

/** A 400 that names the structured-output request (not, say, a context-length 400), so falling back can help. */
function rejectsStructuredOutput(err: unknown): boolean {
  return httpStatus(err) === 400 && /response_format|json_schema|structured|schema/i.test(errorMessage(err));
}

function describe(err: unknown): string {
  // oneLine: a proxy's HTML error page is quoted by its title, never stored whole in an error row.
  if (err instanceof APIError && err.status !== undefined)
    return `HTTP ${err.status}: ${oneLine(errorMessage(err), 300)}`;
  return oneLine(errorMessage(err), 300);
}

function toReply(
  completion: ChatCompletion,
  body: ChatCompletionCreateParamsNonStreaming,
  wantsJson: boolean,
  latencyMs: number,
): CachedReply {
  const choice = completion.choices?.[0];
  const text = choice?.message?.content;
  if (!choice || typeof text !== 'string') throw new MalformedReplyError('reply has no choices[0].message.content');
  // Every caller (reader, judge, classifier, strategy steps) needs text: an empty reply is retried, never cached or scored.
  if (text.trim() === '') throw new MalformedReplyError('reply content is empty');
  // A `\ud800` escape in the reply's JSON is no character: refused, never stored as U+FFFD (src/core/utf8.ts).
  const lone = firstLoneSurrogate(text);
  if (lone >= 0) throw new MalformedReplyError(`reply content holds a lone surrogate at character ${lone}`);
  if (wantsJson && !parseJsonReply(text).ok) throw new MalformedReplyError('reply holds no parseable JSON');
  const usage = completion.usage;
  // Negative or fractional counts are refused (an error row), never priced (usage.ts).
  const counts = usageCounts(usage);
  const hasUsage = counts !== undefined;
  const reply: CachedReply = {
    text,
    model: typeof completion.model === 'string' ? completion.model : body.model,
    promptTokens: counts ? counts.promptTokens : countChatTokens(body.messages as ChatMessage[]),
    completionTokens: counts ? counts.completionTokens : countTokens(text),
    usageFrom: hasUsage ? 'api' : 'tokenizer',
    latencyMs,
  };
  const cachedTokens = usage?.prompt_tokens_details?.cached_tokens;
  if (hasUsage && typeof cachedTokens === 'number' && Number.isSafeInteger(cachedTokens) && cachedTokens > 0) {
    reply.cachedTokens = Math.min(cachedTokens, reply.promptTokens);
  }
  const content = choice.logprobs?.content;
  if (content) {
    reply.logprobs = content.map(
      (t): TokenLogprob => ({
        token: t.token,
        logprob: t.logprob,
        top: (t.top_logprobs ?? []).map((x) => ({ token: x.token, logprob: x.logprob })),
      }),
    );
  }
  return reply;
}

/** Schema-in-prompt for endpoints without structured output: the instruction goes at the end of the last message. */
function withSchemaInstruction(messages: ChatMessage[], schema: Record<string, unknown>): ChatMessage[] {
  const instruction = `\n\nRespond with a single JSON value only (no prose, no code fences) that conforms to this JSON Schema:\n${JSON.stringify(schema)}`;
  const out = messages.slice();
  const last = out[out.length - 1];
  if (last && last.role === 'user') out[out.length - 1] = { role: 'user', content: last.content + instruction };
  else out.push({ role: 'user', content: instruction.trimStart() });
  return out;
}

/** What a chat call returns for a reply: its text, tokens, wall time and cost, and its JSON when a schema was asked. */
function chatResult(
  request: ChatRequest,
  model: string,
  r: { reply: CachedReply; cached: boolean; latencyMs: number; costUsd: number },
): ChatResult {
  const { reply } = r;
  const result: ChatResult = {
    text: reply.text,
    model,
    cached: r.cached,
    promptTokens: reply.promptTokens,
    completionTokens: reply.completionTokens,
    latencyMs: r.latencyMs,
    costUsd: r.costUsd,
  };
  if (reply.cachedTokens !== undefined) result.cachedTokens = reply.cachedTokens;
  if (reply.batch) result.batch = true;
  if (reply.logprobs) result.logprobs = reply.logprobs;
  if (request.jsonSchema) {
    const parsed = parseJsonReply(reply.text);
    if (parsed.ok) result.json = parsed.value;
  }
  return result;
}
