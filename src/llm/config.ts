/**
 * The `llm:` block of an experiment config: one endpoint + model per role, the shared cache, concurrency, rate
 * limit, retries and the price table. The schema itself lives in src/core/llm-config.ts (so the experiment schema
 * can include it); this file re-exports it and adds the runtime defaults. API keys never live in a config: a role
 * names the environment variable that holds its key (`apiKeyEnv`); with no `baseURL` / `apiKeyEnv`, the OpenAI
 * SDK's usual `OPENAI_BASE_URL` / `OPENAI_API_KEY` apply, so one experiment file can point at OpenAI or at a local
 * server without editing it.
 */
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.ts';

export * from '../core/llm-config.ts';

/** `<repo>/.cache` (gitignored), the same root the embeddings cache uses. */
export const DEFAULT_CACHE_DIR = join(PACKAGE_ROOT, '.cache');
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
