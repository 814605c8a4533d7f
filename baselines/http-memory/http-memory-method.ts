/**
 * The `http-memory` method: any memory system that speaks the small http-memory protocol (docs/http-memory.openapi.yaml)
 * — written in any language, e.g. from examples/http-memory-python/server.py — benchmarked next to every other
 * method, on the same machinery as Mem0 and Zep (ingest once, resume, cache, accounting). Options: `url` (the server;
 * `urlEnv` names a variable that overrides it),
 * `apiKeyEnv` (the variable holding its key, sent as `Authorization: Bearer`), `output` (`units` when the server's
 * items cite unit ids, for retrieval metrics; `text` otherwise, judged by answers only), `version` (part of the
 * cache keys: change it when the system changes, or a rerun is served the old system's results), `keep`, `pollMs`,
 * `ingestTimeoutMs`.
 */
import { z } from 'zod';
import { HttpUrlSchema } from '../../src/core/http-url.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { createMemoryServerMethod } from '../memory-server/memory-server-method.ts';
import { CommonServerOptions, resolveAuth, resolveBaseUrl } from '../memory-server/options.ts';
import { createHttpMemoryApi } from './http-memory-api.ts';

const { apiKeyEnv, baseUrlEnv, keep, pollMs, ingestTimeoutMs } = CommonServerOptions;

export const HttpMemoryOptionsSchema = z
  .object({
    /** The server's base URL (the protocol's paths are appended). */
    url: HttpUrlSchema,
    /** Variable holding the URL; when set and non-empty it wins over `url` (one file, any port or host). */
    urlEnv: baseUrlEnv,
    apiKeyEnv,
    /** `units`: items cite unit ids (retrieval metrics); `text`: they do not (answers only; the experiment needs qa). */
    output: z.enum(['units', 'text']).default('units'),
    /** Names the system's version in the cache keys. */
    version: z.string().max(200).default(''),
    keep,
    pollMs: pollMs.default(200),
    ingestTimeoutMs,
  })
  .strict();
export type HttpMemoryOptions = z.output<typeof HttpMemoryOptionsSchema>;

export const httpMemoryEntry = defineMethod({
  name: 'http-memory',
  description:
    'any memory system over the http-memory protocol (docs/http-memory.openapi.yaml): ingests each haystack once, searches top-k',
  optionsSchema: HttpMemoryOptionsSchema,
  examples: [
    {
      label: 'TypeScript reference server',
      options: { url: 'http://127.0.0.1:1' },
      fixtures: { url: 'http-memory-server' },
    },
  ],
  create(o, f) {
    const baseUrl = resolveBaseUrl({ baseUrl: o.url, baseUrlEnv: o.urlEnv }, o.url);
    const auth = resolveAuth(o.apiKeyEnv, 'Authorization', 'Bearer ');
    const api = createHttpMemoryApi({ output: o.output, version: o.version });
    const hint = 'Check that the server runs (adaptmr protocol-check <url>), the url option and the key variable';
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
