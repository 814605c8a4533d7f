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
import type { MemoryServerApi, ServerHit, ServerInfo } from './api.ts';
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

/** The one-line error of a failed health check: the server's own reason, a rejected key, an HTTP status, or unreachable. */
function healthFailure(err: unknown, api: MemoryServerApi, s: MemoryServerSettings, client: JsonHttpClient): Error {
  // The server answered, but cannot be used as configured (its own one line says why).
  if (err instanceof SetupError) return new EndpointError(`${err.message}. ${s.hint}`);
  const status = err instanceof HttpCallError ? err.status : undefined;
  const what =
    status === 401 || status === 403
      ? `the server rejected the key (HTTP ${status}): check the variable named in apiKeyEnv`
      : status !== undefined
        ? `HTTP ${status}: check baseUrl (${s.endpoint.baseUrl})`
        : `unreachable (${client.redact(errorMessage(err)).replace(/^.*?: /, '')})`;
  return new EndpointError(`${api.label} at ${s.endpoint.baseUrl}: ${what}. ${s.hint}`);
}

/** What a search's cached result is keyed by: the server, the haystack, what ingestion and search send, and k. */
function searchMaterial(
  api: MemoryServerApi,
  s: MemoryServerSettings,
  f: MethodFactoryContext,
  index: MemoryIndex,
  query: { text: string; askedAt: string },
) {
  return {
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
}

/** The cached result of this search, recorded as a cached call; undefined when absent or unreadable. */
async function cachedSearch(
  store: ResponseCache,
  key: string,
  api: MemoryServerApi,
  ctx: Ctx,
): Promise<CachedSearch | undefined> {
  const t0 = performance.now();
  const hit = await store.get(key);
  if (hit === undefined) return undefined;
  const parsed = CachedSearchSchema.safeParse(hit);
  if (!parsed.success) return undefined;
  ctx.calls.push({
    stage: 'search',
    model: api.label,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: performance.now() - t0,
    cached: true,
    costUsd: 0,
  });
  return parsed.data;
}

/** The server's hits as cached: the first k, their sources mapped to our unit ids (through `ids` where needed). */
function toCachedSearch(
  hits: readonly ServerHit[],
  api: MemoryServerApi,
  ids: ReadonlyMap<string, string>,
  k: number,
): CachedSearch {
  const server = api.serverInfo?.();
  return {
    ...(server !== undefined ? { server } : {}),
    returned: hits.length,
    hits: hits.slice(0, k).map((h) => ({
      text: h.text,
      score: h.score,
      ...(h.at !== undefined ? { at: h.at } : {}),
      unitIds: [
        ...new Set(
          h.sources.map((id) => (api.sourcesAreUnitIds ? id : ids.get(id))).filter((u): u is string => u !== undefined),
        ),
      ],
    })),
  };
}

/** Deletes every namespace this run (or the run it resumed) created and not yet deleted; a failure is reported, not thrown. */
async function removeNamespaces(
  api: MemoryServerApi,
  http: JsonHttpClient,
  cp: Checkpoints,
  known: ReadonlyMap<string, Checkpoints>,
): Promise<void> {
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
}

/**
 * The haystack's namespace on the server: the run's, the haystack's content key, and a replicate's own (`replicates:
 * n`, src/run/config/replicates.ts: it ingests into its own namespaces and has its own cached searches).
 */
function namespaceName(f: MethodFactoryContext, index: MemoryIndex): string {
  const rep = f.replicate !== undefined ? `r${f.replicate}-` : '';
  return `adaptmr-${f.runKey}-${rep}${haystackKey(index).slice(0, 16)}`;
}

/**
 * The namespaces a run creates, each listed in its checkpoints (REGISTRY_KEY, one write at a time) so `close` —
 * or the close of a run that resumes it — deletes them.
 */
class NamespaceRegistry {
  readonly known = new Map<string, Checkpoints>();
  private lock: Promise<void> = Promise.resolve();

  register(ns: string, cp: Checkpoints): Promise<void> {
    this.known.set(ns, cp);
    const next = this.lock.then(async () => {
      const list = JSON.parse((await cp.get(REGISTRY_KEY)) ?? '[]') as string[];
      if (!list.includes(ns)) await cp.put(REGISTRY_KEY, JSON.stringify([...list, ns]));
    });
    this.lock = next.catch(() => undefined);
    return next;
  }
}

/** The server's health check, run once and shared by every caller; a failure is forgotten, so the next call asks again. */
function healthOnce(
  api: MemoryServerApi,
  s: MemoryServerSettings,
): (client: JsonHttpClient, calls: CallRecord[]) => Promise<ServerInfo | undefined> {
  let healthy: Promise<ServerInfo | undefined> | undefined;
  return (client, calls) => {
    healthy ??= api.health({ http: client, calls, stage: 'ingest' }).then(
      (info) => info || undefined,
      (err: unknown) => {
        healthy = undefined;
        throw healthFailure(err, api, s, client);
      },
    );
    return healthy;
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
  let lastCheckpoints: Checkpoints | undefined;
  const fallbackCheckpoints = memoryCheckpoints();
  const registry = new NamespaceRegistry();
  const checkHealth = healthOnce(api, s);
  const setup = (ctx: Ctx) => {
    const policy = ctx.llm?.requestPolicy ?? defaultPolicy();
    if (!http) retry = { retries: policy.maxRetries, retryBaseMs: policy.retryBaseMs };
    http ??= new JsonHttpClient(s.endpoint, policy);
    cache ??= new ResponseCache(policy.cacheDir, policy.cacheMode);
    return { http, cache };
  };
  const namespaceOf = (index: MemoryIndex) => namespaceName(f, index);
  const ingestHaystack = perHaystack(async (index, ctx): Promise<Ingested> => {
    const { http: client } = setup(ctx);
    // A message the server would refuse stops the run before any request (split.ts).
    fitMessages(toMessages(index.units), api.maxMessageChars, s.longMessages ?? 'split', api.label);
    const info = await checkHealth(client, ctx.calls);
    const ns = namespaceOf(index);
    const cp = ctx.checkpoints ?? fallbackCheckpoints;
    // The image the server says it runs, kept with the run (a results bundle's manifest records it).
    if (info?.image !== undefined) await cp.put(SERVER_IMAGE_KEY, info.image);
    await registry.register(ns, cp);
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
      const user = `method ${f.id} (${api.label})`;
      try {
        const info = await checkHealth(new JsonHttpClient(s.endpoint, defaultPolicy()), []);
        const image = info?.image === undefined ? '' : `; runs ${info.image}`;
        return [{ user, url: s.endpoint.baseUrl, ok: true, detail: `reachable, key accepted${image}` }];
      } catch (err) {
        return [{ user, url: s.endpoint.baseUrl, ok: false, detail: errorMessage(err) }];
      }
    },
    async run(query, index, ctx) {
      const { http: client, cache: store } = setup(ctx);
      if (ctx.checkpoints) lastCheckpoints = ctx.checkpoints;
      const material = searchMaterial(api, s, f, index, query);
      const key = ResponseCache.key(material);
      const cached = await cachedSearch(store, key, api, ctx);
      if (cached) return { retrieval: renderSearch(cached, index, f.k, api) };
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
      const result = toCachedSearch(hits, api, ingested.ids, f.k);
      await store.put(key, material, result);
      return { retrieval: renderSearch(result, index, f.k, api) };
    },
    async close() {
      if (s.keep || !http) return;
      await removeNamespaces(api, http, lastCheckpoints ?? fallbackCheckpoints, registry.known);
    },
  };
}
