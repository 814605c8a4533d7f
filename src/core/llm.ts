/**
 * The LLM contract every LLM user codes against (classifier, strategy steps, reader, judge). The implementation —
 * OpenAI-compatible client, content-addressed cache, retries, accounting — lives in src/llm.
 */
import type { CallRecord } from './calls.ts';

export const LLM_ROLES = ['reader', 'judge', 'classifier', 'strategy'] as const;
export type LlmRole = (typeof LLM_ROLES)[number];

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Overrides the role's configured temperature / max tokens. */
  temperature?: number;
  maxTokens?: number;
  /** Ask for structured output (JSON schema) where the endpoint supports it; replies are parsed tolerantly otherwise. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  /** Ask for token log-probabilities (classifier probabilities). */
  logprobs?: { top: number };
  /** Distinguishes deliberate repeats of the same request (e.g. judge run 2 of 3) in the cache key. */
  repeat?: number;
  /**
   * Sent as `prompt_cache_key`: requests sharing a long prefix (the same haystack) are routed to the same provider
   * cache. It does not change the reply, so it stays out of the reply cache's key.
   */
  promptCacheKey?: string;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

export interface ChatResult {
  text: string;
  /** The parsed JSON when `jsonSchema` was asked for and the reply parsed. */
  json?: unknown;
  logprobs?: TokenLogprob[];
  model: string;
  cached: boolean;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  costUsd: number;
  /** Prompt tokens the provider served from its prompt cache. */
  cachedTokens?: number;
  /** Answered through the Batch API. */
  batch?: boolean;
}

/** One configured model for one role. `chat` records a CallRecord into `calls` (hit or miss, success or error). */
export interface LlmClient {
  readonly role: LlmRole;
  readonly model: string;
  chat(request: ChatRequest, meta: { stage: string; calls: CallRecord[] }): Promise<ChatResult>;
}

/**
 * The LLM layer's admission control and retry policy, shared with other HTTP clients of a run (the memory-server
 * adapters in baselines/), so Mem0/Zep requests count against the same concurrency and requests-per-minute limits
 * and retry the same way. `cacheDir`/`cacheMode` are the LLM cache's, for content-addressed caches beside it.
 */
export interface RequestPolicy {
  /** Runs one HTTP attempt inside the shared concurrency / rate limit. */
  schedule<T>(fn: () => Promise<T>): Promise<T>;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  /** Largest reply body read (llm.maxReplyBytes; src/core/reply-limit.ts). Absent: the default cap. */
  maxReplyBytes?: number;
  cacheDir: string;
  cacheMode: 'read-write' | 'read-only' | 'off';
}

/** Hands out the client configured for a role; throws a clear error when the experiment configured none. */
export interface LlmProvider {
  forRole(role: LlmRole): LlmClient;
  has(role: LlmRole): boolean;
  /**
   * A client for `role` asking another model on the role's endpoint, with its key, settings, cache and limits (the
   * judges of a panel). Optional for test doubles; `clientFor` (below) falls back to `forRole` for the role's model.
   */
  forModel?(role: LlmRole, model: string): LlmClient;
  /** The shared request policy (present on the real provider; test doubles may leave it out). */
  readonly requestPolicy?: RequestPolicy;
}

/** The client of `role` for `model`: the role's own when it is that model, else `forModel` (a judge panel). */
export function clientFor(llm: LlmProvider, role: LlmRole, model: string): LlmClient {
  const own = llm.forRole(role);
  if (own.model === model) return own;
  if (!llm.forModel) throw new Error(`this LLM provider cannot ask model "${model}" for role "${role}"`);
  return llm.forModel(role, model);
}
