/**
 * The schema of an experiment's `llm:` block (implementation in src/llm; see src/llm/config.ts). It lives in core so
 * the experiment schema (config.ts) can include it while core imports nothing else in src. API keys never appear
 * here: a role names the environment variable that holds its key (`apiKeyEnv`); with no `baseURL` / `apiKeyEnv`,
 * the OpenAI SDK's usual `OPENAI_BASE_URL` / `OPENAI_API_KEY` apply.
 */
import { z } from 'zod';
import { HttpUrlSchema } from './http-url.ts';
import { LLM_ROLES } from './llm.ts';

export const CACHE_MODES = ['read-write', 'read-only', 'off'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

/** How structured output is asked for. `json-schema` falls back to `prompt` when the endpoint rejects it (HTTP 400). */
export const STRUCTURED_OUTPUT_MODES = ['json-schema', 'json-object', 'prompt'] as const;
export type StructuredOutputMode = (typeof STRUCTURED_OUTPUT_MODES)[number];

export const LlmRoleConfigSchema = z
  .object({
    /** OpenAI-compatible endpoint, e.g. `http://127.0.0.1:8000/v1` (vLLM); default `OPENAI_BASE_URL` or OpenAI. */
    baseURL: HttpUrlSchema.optional(),
    model: z.string().min(1),
    /** Name of the environment variable holding the key (never the key itself); default `OPENAI_API_KEY`. */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name, not a key')
      .optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    structuredOutput: z.enum(STRUCTURED_OUTPUT_MODES).default('json-schema'),
    /** OpenAI's reasoning models (o-series, gpt-5) take `max_completion_tokens`; most servers take `max_tokens`. */
    maxTokensParam: z.enum(['max_tokens', 'max_completion_tokens']).default('max_tokens'),
  })
  .strict();
export type LlmRoleConfig = z.infer<typeof LlmRoleConfigSchema>;

export const PriceSchema = z
  .object({
    /** USD per million prompt tokens. */
    inputPerMTok: z.number().nonnegative(),
    /** USD per million completion tokens. */
    outputPerMTok: z.number().nonnegative(),
    /**
     * USD per million prompt tokens the provider served from its prompt cache (`usage.prompt_tokens_details.
     * cached_tokens`); default: the input price (no discount assumed).
     */
    cachedInputPerMTok: z.number().nonnegative().optional(),
    /** Batch API prices (USD per million tokens); default: half the list prices, OpenAI's published Batch discount. */
    batchInputPerMTok: z.number().nonnegative().optional(),
    batchOutputPerMTok: z.number().nonnegative().optional(),
  })
  .strict();
export type Price = z.infer<typeof PriceSchema>;

/**
 * `llm.batch`: the roles whose uncached requests go through the provider's Batch API (OpenAI `/v1/batches`: half
 * price, results within 24 h) instead of one request each (src/run/spend/batch-stage.ts).
 */
export const LlmBatchSchema = z
  .object({
    roles: z.array(z.enum(LLM_ROLES)).min(1),
    /** Seconds between two status requests while a batch runs. */
    pollSeconds: z.number().positive().default(30),
    /** Hours the run waits for a batch (counted from its submission, across resumes) before it stops to be resumed. */
    maxWaitHours: z.number().positive().default(24),
  })
  .strict();
export type LlmBatchConfig = z.infer<typeof LlmBatchSchema>;

export const LlmConfigSchema = z
  .object({
    cache: z
      .object({
        mode: z.enum(CACHE_MODES).default('read-write'),
        /** Cache root (entries go under `<dir>/llm/`); default `ADAPTMR_CACHE_DIR`, else `<repo>/.cache`. */
        dir: z.string().optional(),
      })
      .strict()
      .default({ mode: 'read-write' }),
    /** Requests in flight at once, across all roles of this experiment. */
    concurrency: z.number().int().positive().default(4),
    /** Optional cap on requests started per minute (requests are spaced evenly). */
    requestsPerMinute: z.number().positive().optional(),
    /** Per-attempt timeout. */
    timeoutMs: z.number().int().positive().default(60_000),
    /**
     * Largest reply body read, in bytes (default 4 MiB, src/core/reply-limit.ts); a longer one is cut off while it
     * streams in and becomes an error row naming this option. Also caps the memory servers' replies.
     */
    maxReplyBytes: z.number().int().positive().optional(),
    /** Retries after the first attempt on 429, 5xx, timeouts, connection errors and malformed replies. */
    maxRetries: z.number().int().nonnegative().default(4),
    /** First backoff delay; doubles per retry (with jitter), capped at 30 s; a Retry-After header wins. */
    retryBaseMs: z.number().int().nonnegative().default(1000),
    /** Price per model id; models absent from the table cost 0 (local servers). */
    prices: z.record(z.string(), PriceSchema).default({}),
    /** Batch API for these roles (see LlmBatchSchema); absent: every request is sent on its own. */
    batch: LlmBatchSchema.optional(),
    /**
     * The most this run may spend on LLM calls, in USD at the price table (calls already recorded in the results
     * file count): a call that could take the total past it is not sent, and the run stops cleanly, to be resumed
     * with a larger budget (src/run/spend/budget.ts).
     */
    budgetUsd: z.number().positive().optional(),
    roles: z
      .object({
        reader: LlmRoleConfigSchema.optional(),
        judge: LlmRoleConfigSchema.optional(),
        classifier: LlmRoleConfigSchema.optional(),
        strategy: LlmRoleConfigSchema.optional(),
      })
      .strict(),
  })
  .strict();
export type LlmConfig = z.infer<typeof LlmConfigSchema>;
/** What a config file may say (defaults not yet applied). */
export type LlmConfigInput = z.input<typeof LlmConfigSchema>;
