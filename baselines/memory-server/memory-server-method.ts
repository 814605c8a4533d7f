/**
 * The method shared by every memory-server API (Mem0, Zep, Graphiti): ingest each haystack once per run into its own
 * namespace, then search it per question and render the memories, dated, for the reader.
 *
 * - Namespace = `adaptmr-<runKey>-<haystack content hash>`: two runs never see each other's memories, and questions
 *   sharing a haystack (a LoCoMo conversation) share one ingestion (`perHaystack`).
 * - Search results are cached content-addressed (src/llm/http/response-cache.ts) by API, base URL, the haystack's
 *   content hash, query and k, and looked up *before* anything is ingested: a rerun of a finished experiment into a
 *   new results file sends no HTTP request at all (not even the health check).
 * - Before the first request the server's reachability and key are checked once; failure is an EndpointError, which
 *   stops the run with one line naming the URL and what to check.
 * - Provenance: hits with source episode ids (Zep, Graphiti) map back to our unit ids (ranked units, retrieval
 *   metrics); Mem0 gives none, so the method declares `output: 'text'` and returns no units.
 * - `close()` deletes every namespace the run created (listed in the results file's markers) unless `keep`.
 */
import type { CallRecord } from '../../src/core/calls.ts';
import { EndpointError, errorMessage, SetupError } from '../../src/core/errors.ts';
import { normaliseEndpoint } from '../../src/core/http-url.ts';
import type { Checkpoints, Ctx, MemoryIndex, Method, MethodFactoryContext } from '../../src/core/interfaces.ts';
import type { RequestPolicy } from '../../src/core/llm.ts';
import { haystackKey, perHaystack } from '../../src/index/per-haystack.ts';
import { DEFAULT_CACHE_DIR } from '../../src/llm/config.ts';
import { HttpCallError, type HttpEndpoint, JsonHttpClient, ResponseCache } from '../../src/llm/http/index.ts';
import { Scheduler } from '../../src/llm/scheduler.ts';
import type { MemoryServerApi, ServerInfo } from './api.ts';
import { ingest, type Ingested, memoryCheckpoints, toMessages } from './ingest.ts';
import { CachedSearchSchema, type CachedSearch, renderSearch } from './render.ts';
import { fitMessages, type LongMessages } from './split.ts';

export interface MemoryServerSettings {
  endpoint: HttpEndpoint;
  keep: boolean;
  pollMs: number;
  ingestTimeoutMs: number;
  /** What to do with a message over the server's content cap (`api.maxMessageChars`); default split. */
  longMessages?: LongMessages;
  /** What to tell the user when the server cannot be used (how to start it, which variable holds the key). */
  hint: string;
}

const REGISTRY_KEY = 'namespaces';
/** The method's checkpoint holding the image its server reported (`name@sha256:…`). */
export const SERVER_IMAGE_KEY = 'server-image';

function defaultPolicy(): RequestPolicy {
  const scheduler = new Scheduler(4);
  const env = process.env.ADAPTMR_CACHE_DIR;
  return {
    schedule: (fn) => scheduler.run(fn),
    timeoutMs: 60_000,
    maxRetries: 4,
    retryBaseMs: 1000,
    cacheDir: env !== undefined && env !== '' ? env : DEFAULT_CACHE_DIR,
    cacheMode: 'read-write',
  };
}

export function createMemoryServerMethod(
  api: MemoryServerApi,
  s: MemoryServerSettings,
  f: MethodFactoryContext,
): Method {
  let http: JsonHttpClient | undefined;
  let cache: ResponseCache | undefined;
  let retry = { retries: 4, retryBaseMs: 1000 };
  let healthy: Promise<ServerInfo | undefined> | undefined;
  let lastCheckpoints: Checkpoints | undefined;
  const fallbackCheckpoints = memoryCheckpoints();
  const known = new Map<string, Checkpoints>();
  let registryLock: Promise<void> = Promise.resolve();

  const setup = (ctx: Ctx) => {
    const policy = ctx.llm?.requestPolicy ?? defaultPolicy();
    if (!http) retry = { retries: policy.maxRetries, retryBaseMs: policy.retryBaseMs };
    http ??= new JsonHttpClient(s.endpoint, policy);
    cache ??= new ResponseCache(policy.cacheDir, policy.cacheMode);
    return { http, cache };
  };
  // A replicate (`replicates: n`, src/run/replicates.ts) ingests into its own namespaces and has its own cached searches.
  const rep = f.replicate !== undefined ? `r${f.replicate}-` : '';
  const namespaceOf = (index: MemoryIndex) => `adaptmr-${f.runKey}-${rep}${haystackKey(index).slice(0, 16)}`;

  const checkHealth = (client: JsonHttpClient, calls: CallRecord[]): Promise<ServerInfo | undefined> => {
    healthy ??= api.health({ http: client, calls, stage: 'ingest' }).then(
      (info) => info || undefined,
      (err: unknown) => {
        healthy = undefined;
        // The server answered, but cannot be used as configured (its own one line says why).
        if (err instanceof SetupError) throw new EndpointError(`${err.message}. ${s.hint}`);
        const status = err instanceof HttpCallError ? err.status : undefined;
        const what =
          status === 401 || status === 403
            ? `the server rejected the key (HTTP ${status}): check the variable named in apiKeyEnv`
            : status !== undefined
              ? `HTTP ${status}: check baseUrl (${s.endpoint.baseUrl})`
              : `unreachable (${client.redact(errorMessage(err)).replace(/^.*?: /, '')})`;
        throw new EndpointError(`${api.label} at ${s.endpoint.baseUrl}: ${what}. ${s.hint}`);
      },
    );
    return healthy;
  };

  const register = (ns: string, cp: Checkpoints): Promise<void> => {
    known.set(ns, cp);
    const next = registryLock.then(async () => {
      const list = JSON.parse((await cp.get(REGISTRY_KEY)) ?? '[]') as string[];
      if (!list.includes(ns)) await cp.put(REGISTRY_KEY, JSON.stringify([...list, ns]));
    });
    registryLock = next.catch(() => undefined);
    return next;
  };

  const ingestHaystack = perHaystack(async (index, ctx): Promise<Ingested> => {
    const { http: client } = setup(ctx);
    // A message the server would refuse stops the run before any request (split.ts).
    fitMessages(toMessages(index.units), api.maxMessageChars, s.longMessages ?? 'split', api.label);
    const info = await checkHealth(client, ctx.calls);
    const ns = namespaceOf(index);
    const cp = ctx.checkpoints ?? fallbackCheckpoints;
    // The image the server says it runs, kept with the run (a results bundle's manifest records it).
    if (info?.image !== undefined) await cp.put(SERVER_IMAGE_KEY, info.image);
    await register(ns, cp);
    return ingest(
      api,
      ns,
      index.units,
      cp,
      { http: client, calls: ctx.calls, stage: 'ingest' },
      { pollMs: s.pollMs, timeoutMs: s.ingestTimeoutMs, ...retry, longMessages: s.longMessages ?? 'split' },
    );
  });

  return {
    capabilities: { output: api.output, memorises: true },
    async checkEndpoints() {
      const client = new JsonHttpClient(s.endpoint, defaultPolicy());
      const user = `method ${f.id} (${api.label})`;
      try {
        const info = await checkHealth(client, []);
        const image = info?.image === undefined ? '' : `; runs ${info.image}`;
        return [{ user, url: s.endpoint.baseUrl, ok: true, detail: `reachable, key accepted${image}` }];
      } catch (err) {
        return [{ user, url: s.endpoint.baseUrl, ok: false, detail: errorMessage(err) }];
      }
    },
    async run(query, index, ctx) {
      const { http: client, cache: store } = setup(ctx);
      if (ctx.checkpoints) lastCheckpoints = ctx.checkpoints;
      const material = {
        api: api.label,
        baseUrl: normaliseEndpoint(s.endpoint.baseUrl),
        content: haystackKey(index),
        ingest: api.ingestSettings,
        query: query.text,
        // Only where the question's date is sent: the cache keys of the other APIs stay as they were.
        ...(api.usesQuestionDate ? { askedAt: query.askedAt } : {}),
        k: f.k,
        search: api.searchSettings,
        ...(f.replicate !== undefined ? { replicate: f.replicate } : {}),
      };
      const key = ResponseCache.key(material);
      const t0 = performance.now();
      const hit = await store.get(key);
      if (hit !== undefined) {
        const parsed = CachedSearchSchema.safeParse(hit);
        if (parsed.success) {
          ctx.calls.push({
            stage: 'search',
            model: api.label,
            promptTokens: 0,
            completionTokens: 0,
            latencyMs: performance.now() - t0,
            cached: true,
            costUsd: 0,
          });
          return { retrieval: renderSearch(parsed.data, index, f.k, api) };
        }
      }
      if (index.units.length === 0) return { retrieval: renderSearch({ hits: [] }, index, f.k, api) };
      const ingested = await ingestHaystack(index, ctx);
      await checkHealth(client, ctx.calls);
      const hits = await api.search(
        namespaceOf(index),
        ingested.state,
        { text: query.text, askedAt: query.askedAt },
        f.k,
        { http: client, calls: ctx.calls, stage: 'search' },
      );
      const server = api.serverInfo?.();
      const result: CachedSearch = {
        ...(server !== undefined ? { server } : {}),
        returned: hits.length,
        hits: hits.slice(0, f.k).map((h) => ({
          text: h.text,
          score: h.score,
          ...(h.at !== undefined ? { at: h.at } : {}),
          unitIds: [
            ...new Set(
              h.sources
                .map((id) => (api.sourcesAreUnitIds ? id : ingested.ids.get(id)))
                .filter((u): u is string => u !== undefined),
            ),
          ],
        })),
      };
      await store.put(key, material, result);
      return { retrieval: renderSearch(result, index, f.k, api) };
    },
    async close() {
      if (s.keep || !http) return;
      const cp = lastCheckpoints ?? fallbackCheckpoints;
      const listed = JSON.parse((await cp.get(REGISTRY_KEY)) ?? '[]') as string[];
      const all = new Set([...listed, ...known.keys()]);
      const calls: CallRecord[] = [];
      for (const ns of all) {
        const store = known.get(ns) ?? cp;
        const state = await store.get(`${ns}:state`);
        if (state === undefined || (await store.has(`${ns}:deleted`))) continue;
        try {
          await api.remove(ns, JSON.parse(state) as Record<string, string>, { http, calls, stage: 'cleanup' });
          await store.put(`${ns}:deleted`, new Date().toISOString());
        } catch (err) {
          process.stderr.write(`${api.label}: could not delete namespace ${ns}: ${http.redact(errorMessage(err))}\n`);
        }
      }
    },
  };
}
