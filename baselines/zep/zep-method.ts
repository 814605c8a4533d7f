/**
 * The `zep` method: Zep as a memory baseline over HTTP — `api: v3` (Zep Cloud v3), `api: v4` (the v4 Context API) or
 * `api: graphiti` (the open-source Graphiti server, e.g. compose/graphiti.yaml). Facts (graph edges) come back with
 * the episodes they were extracted from; episodes map to our message ids, so retrieval metrics are computed.
 */
import { z } from 'zod';
import { InputError } from '../../src/core/errors.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { createMemoryServerMethod } from '../memory-server/memory-server-method.ts';
import { CommonServerOptions, resolveAuth, resolveBaseUrl } from '../memory-server/options.ts';
import { createGraphitiApi } from './graphiti-api.ts';
import { createZepV3Api, ZEP_MAX_MESSAGE_CHARS } from './v3-api.ts';
import { createZepV4Api } from './v4-api.ts';

export const ZepOptionsSchema = z
  .object({
    api: z.enum(['v3', 'v4', 'graphiti']).default('graphiti'),
    ...CommonServerOptions,
    /** What a search returns: facts (`edges`, Zep's default) or the stored messages (`episodes`). Not for graphiti. */
    scope: z.enum(['edges', 'episodes']).default('edges'),
    /** Zep's reranker (`rrf` default, `mmr`, `cross_encoder`, …). Not for graphiti. */
    reranker: z.string().default('rrf'),
    /** Longest message content Zep Cloud accepts (2,500 characters on the free plan). Not for graphiti. */
    maxMessageChars: z.number().int().min(100).default(ZEP_MAX_MESSAGE_CHARS),
    /** A longer message: sent in parts (`split`, each part mapped to its unit) or the run stopped before any request. */
    longMessages: z.enum(['split', 'refuse']).default('split'),
  })
  .strict();

export const DEFAULT_ZEP_URLS = {
  v3: 'https://api.getzep.com/api/v2',
  v4: 'https://api.getzep.com/api/v4',
  graphiti: 'http://localhost:8000',
} as const;

export const zepEntry = defineMethod({
  name: 'zep',
  description:
    'Zep over HTTP (api: v3 | v4 | graphiti server): ingests each haystack once, searches facts with their source episodes (retrieval metrics)',
  optionsSchema: ZepOptionsSchema,
  examples: (['v3', 'v4', 'graphiti'] as const).map((api) => ({
    label: api,
    options: { api },
    skip: 'needs a Zep/Graphiti server; baselines/memory-server/memory-server-method.test.ts runs the same checks against the loopback stand-ins',
  })),
  create(o, f) {
    const baseUrl = resolveBaseUrl(o, DEFAULT_ZEP_URLS[o.api]);
    if (o.api === 'graphiti' && o.apiKeyEnv !== undefined)
      throw new InputError('the Graphiti server has no authentication: remove apiKeyEnv');
    if (o.api === 'graphiti' && o.scope !== 'edges')
      throw new InputError('the Graphiti server searches facts only: remove scope');
    if (o.api === 'graphiti' && o.maxMessageChars !== ZEP_MAX_MESSAGE_CHARS)
      throw new InputError('the Graphiti server has no message cap: remove maxMessageChars');
    const auth = resolveAuth(o.apiKeyEnv, 'Authorization', 'Api-Key ');
    const api = o.api === 'graphiti' ? createGraphitiApi() : o.api === 'v3' ? createZepV3Api(o) : createZepV4Api(o);
    const hint =
      o.api === 'graphiti'
        ? 'Start it with `docker compose -f compose/graphiti.yaml up -d` (README "Memory servers") and check baseUrl/GRAPHITI_BASE_URL'
        : `Check the key in ${o.apiKeyEnv ?? 'apiKeyEnv (none configured)'} and baseUrl`;
    return createMemoryServerMethod(
      api,
      {
        endpoint: { label: api.label, baseUrl, ...(auth ? { auth } : {}) },
        keep: o.keep,
        pollMs: o.pollMs,
        ingestTimeoutMs: o.ingestTimeoutMs,
        longMessages: o.longMessages,
        hint,
      },
      f,
    );
  },
});
