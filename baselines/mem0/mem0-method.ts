/**
 * The `mem0` method: Mem0 as a memory baseline over its HTTP API — `api: oss` (the open-source REST server, e.g.
 * compose/mem0.yaml) or `api: platform` (Mem0 Platform v3). Mem0 returns memories without source message ids, so the
 * method declares `output: 'text'`: it is judged by the reader's answers and has no retrieval metrics ("n/a").
 */
import { z } from 'zod';
import { defineMethod } from '../../src/core/method-entry.ts';
import { createMemoryServerMethod } from '../memory-server/memory-server-method.ts';
import { CommonServerOptions, resolveAuth, resolveBaseUrl } from '../memory-server/options.ts';
import { createMem0OssApi } from './oss-api.ts';
import { createMem0PlatformApi } from './platform-api.ts';

export const Mem0OptionsSchema = z
  .object({
    api: z.enum(['oss', 'platform']).default('oss'),
    ...CommonServerOptions,
    /** Let Mem0 extract facts (its normal mode); false stores messages verbatim. */
    infer: z.boolean().default(true),
  })
  .strict();
export type Mem0Options = z.output<typeof Mem0OptionsSchema>;

export const DEFAULT_MEM0_URLS = { oss: 'http://localhost:8888', platform: 'https://api.mem0.ai' } as const;

export const mem0Entry = defineMethod({
  name: 'mem0',
  description:
    'Mem0 over HTTP (api: oss server | platform v3): ingests each haystack once, searches top-k memories; no source ids (QA only)',
  optionsSchema: Mem0OptionsSchema,
  examples: (['oss', 'platform'] as const).map((api) => ({
    label: api,
    options: { api },
    skip: 'needs a Mem0 server; baselines/memory-server/memory-server-method.test.ts runs the same checks against the loopback stand-ins',
  })),
  create(o, f) {
    const baseUrl = resolveBaseUrl(o, DEFAULT_MEM0_URLS[o.api]);
    const auth =
      o.api === 'oss' ? resolveAuth(o.apiKeyEnv, 'X-API-Key', '') : resolveAuth(o.apiKeyEnv, 'Authorization', 'Token ');
    const api = o.api === 'oss' ? createMem0OssApi({ infer: o.infer }) : createMem0PlatformApi({ infer: o.infer });
    const hint =
      o.api === 'oss'
        ? 'Start it with `docker compose -f compose/mem0.yaml up -d` (README "Memory servers") and check baseUrl/MEM0_BASE_URL and the key variable'
        : `Check the key in ${o.apiKeyEnv ?? 'apiKeyEnv (none configured)'} and baseUrl`;
    return createMemoryServerMethod(
      api,
      {
        endpoint: { label: api.label, baseUrl, ...(auth ? { auth } : {}) },
        keep: o.keep,
        pollMs: o.pollMs,
        ingestTimeoutMs: o.ingestTimeoutMs,
        hint,
      },
      f,
    );
  },
});
