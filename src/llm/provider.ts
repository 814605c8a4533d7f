/**
 * `createLlmProvider(config, env)`: turns an experiment's `llm:` block into the `LlmProvider` of src/core/llm.ts.
 * All roles share one cache, one scheduler (concurrency + rate limit) and one in-flight map, so identical requests
 * from different roles or questions are made once.
 *
 * Endpoint and key resolution per role: `baseURL` from the role, else `OPENAI_BASE_URL`, else OpenAI; the key from
 * the variable the role names in `apiKeyEnv`, else `OPENAI_API_KEY`. A role that names a variable which is unset is
 * an error (a typo should not silently send requests unauthenticated); with no key at all a placeholder is sent,
 * which local servers (vLLM, Ollama, llama.cpp) accept. Cache root: `cache.dir`, else `ADAPTMR_CACHE_DIR`, else
 * `<repo>/.cache`; entries go under `<root>/llm/`.
 */
import { resolve } from 'node:path';
import { InputError } from '../core/errors.ts';
import { formatZodError } from '../core/registry.ts';
import { readSecret } from '../core/secrets.ts';
import { DEFAULT_MAX_REPLY_BYTES } from '../core/reply-limit.ts';
import { CACHE_DIR_HINT, ensureWritableDir } from '../core/writable-dir.ts';
import { LLM_ROLES, type LlmClient, type LlmProvider, type LlmRole } from '../core/llm.ts';
import { LlmCache } from './cache.ts';
import { Scheduler } from './scheduler.ts';
import { createPooledFetch } from './http/node-fetch.ts';
import { type ClientShared, type LlmStats, OpenAiCompatibleClient } from './client.ts';
import type { BatchQueue, SpendGuard } from './spend.ts';
import {
  type CacheMode,
  DEFAULT_CACHE_DIR,
  type LlmConfig,
  type LlmConfigInput,
  LlmConfigSchema,
  OPENAI_DEFAULT_BASE_URL,
} from './config.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Sent when no key is configured at all: local OpenAI-compatible servers ignore the header. */
export const NO_KEY_PLACEHOLDER = 'no-key';

/** What a run records about its LLM set-up (provenance): no keys, only where they come from. */
export interface ResolvedRole {
  role: LlmRole;
  baseURL: string;
  model: string;
  apiKeyEnv: string | null;
  temperature: number | null;
  maxTokens: number | null;
}

export interface AdaptmrLlmProvider extends LlmProvider {
  readonly cacheDir: string;
  readonly cacheMode: CacheMode;
  /** Per-role endpoint and model, for the run's provenance. */
  describe(): ResolvedRole[];
  /** Counters since creation: HTTP requests, cache hits, de-duplicated calls, errors. */
  stats(): LlmStats;
  /** The configured client of a role with its request-building and Batch API access (throws as `forRole`). */
  client(role: LlmRole): OpenAiCompatibleClient;
  /** The reply cache every role shares (the Batch API's replies are folded into it). */
  readonly cache: LlmCache;
  /** Installs (or, with undefined, removes) the run's Batch API queue and budget guard (src/llm/spend.ts). */
  control(hooks: { batch?: BatchQueue | undefined; budget?: SpendGuard | undefined }): void;
}

/** Cache root: `cache.dir`, else `ADAPTMR_CACHE_DIR`, else `<repo>/.cache` (as the embeddings cache, src/index). */
export function resolveLlmCacheRoot(config: Pick<LlmConfig, 'cache'>, env: Env): string {
  const fromEnv = env.ADAPTMR_CACHE_DIR;
  return resolve(config.cache.dir ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_CACHE_DIR));
}

/**
 * A configured role's client settings (endpoint without trailing slash, key from its variable) and its description
 * for the run's provenance; undefined when the config has no such role. A named key variable must be set.
 */
function roleSettings(
  role: LlmRole,
  config: LlmConfig,
  env: Env,
): { settings: ConstructorParameters<typeof OpenAiCompatibleClient>[0]; described: ResolvedRole } | undefined {
  const rc = config.roles[role];
  if (!rc) return undefined;
  const baseURL = (rc.baseURL ?? env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const keyVar = rc.apiKeyEnv ?? 'OPENAI_API_KEY';
  const key = readSecret(keyVar, env);
  if (rc.apiKeyEnv !== undefined && (key === undefined || key === '')) {
    throw new InputError(`environment variable ${rc.apiKeyEnv} (apiKeyEnv) is not set`, `llm.roles.${role}`);
  }
  const settings = {
    role,
    baseURL,
    model: rc.model,
    apiKey: key && key !== '' ? key : NO_KEY_PLACEHOLDER,
    structuredOutput: rc.structuredOutput,
    maxTokensParam: rc.maxTokensParam,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    retryBaseMs: config.retryBaseMs,
    prices: config.prices,
    ...(rc.temperature !== undefined ? { temperature: rc.temperature } : {}),
    ...(rc.maxTokens !== undefined ? { maxTokens: rc.maxTokens } : {}),
  };
  const described: ResolvedRole = {
    role,
    baseURL,
    model: rc.model,
    apiKeyEnv: key !== undefined && key !== '' ? keyVar : null,
    temperature: rc.temperature ?? null,
    maxTokens: rc.maxTokens ?? null,
  };
  return { settings, described };
}

export function createLlmProvider(input: LlmConfigInput | LlmConfig, env: Env = process.env): AdaptmrLlmProvider {
  const parsed = LlmConfigSchema.safeParse(input);
  if (!parsed.success) throw new InputError(formatZodError(parsed.error), 'llm');
  const config = parsed.data;
  const cacheDir = resolveLlmCacheRoot(config, env);
  // Checked before any call: a cache that cannot take writes would fail every call alike.
  // A cache on a read-only mount (a shared copy holding every reply) is usable as it is: the message says how.
  if (config.cache.mode === 'read-write') {
    ensureWritableDir(
      cacheDir,
      'LLM cache folder',
      `${config.cache.dir !== undefined ? 'set llm.cache.dir to a writable folder' : CACHE_DIR_HINT}, or set llm.cache.mode: read-only to use the replies it holds without adding any`,
    );
  }
  const shared: ClientShared = {
    cache: new LlmCache(cacheDir, config.cache.mode),
    scheduler: new Scheduler(config.concurrency, config.requestsPerMinute),
    inflight: new Map(),
    stats: { requests: 0, cacheHits: 0, deduplicated: 0, errors: 0 },
    // One keep-alive pool for every role, as wide as the scheduler lets requests through.
    fetch: createPooledFetch(config.concurrency, config.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES),
  };
  const clients = new Map<LlmRole, OpenAiCompatibleClient>();
  const settingsOf = new Map<LlmRole, ConstructorParameters<typeof OpenAiCompatibleClient>[0]>();
  const described: ResolvedRole[] = [];
  for (const role of LLM_ROLES) {
    const resolved = roleSettings(role, config, env);
    if (!resolved) continue;
    settingsOf.set(role, resolved.settings);
    clients.set(role, new OpenAiCompatibleClient(resolved.settings, shared));
    described.push(resolved.described);
  }
  // Other models on a role's endpoint (a judge panel), one client each, sharing the cache, scheduler, in-flight map
  // and the run's Batch API queue and budget guard.
  const byModel = new Map<string, OpenAiCompatibleClient>();
  const clientOf = (role: LlmRole): OpenAiCompatibleClient => {
    const client = clients.get(role);
    if (!client) {
      throw new InputError(
        `this experiment configures no "${role}" model; add llm.roles.${role} to the config`,
        'llm.roles',
      );
    }
    return client;
  };
  return {
    cacheDir,
    cacheMode: config.cache.mode,
    has: (role) => clients.has(role),
    forRole: (role): LlmClient => clientOf(role),
    forModel(role, model) {
      const own = clientOf(role);
      if (own.model === model) return own;
      const key = `${role}\t${model}`;
      let client = byModel.get(key);
      if (!client) byModel.set(key, (client = new OpenAiCompatibleClient({ ...settingsOf.get(role)!, model }, shared)));
      return client;
    },
    client: (role) => clientOf(role),
    cache: shared.cache,
    control(hooks) {
      shared.batch = hooks.batch;
      shared.budget = hooks.budget;
    },
    requestPolicy: {
      schedule: (fn) => shared.scheduler.run(fn),
      timeoutMs: config.timeoutMs,
      maxRetries: config.maxRetries,
      retryBaseMs: config.retryBaseMs,
      maxReplyBytes: config.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
      cacheDir,
      cacheMode: config.cache.mode,
    },
    describe: () => described.map((d) => ({ ...d })),
    stats: () => ({ ...shared.stats }),
  };
}
