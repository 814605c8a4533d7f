/**
 * The Graphiti server (getzep/graphiti `server/graph_service` at commit 993e081a6d7948a0d8851c12a5fbdbeb49fed862:
 * `routers/ingest.py`, `routers/retrieve.py`, `dto/common.py`, `dto/retrieve.py`). No auth.
 *
 * - add: `POST /messages` `{ group_id, messages: [{ content, name, role_type, role, timestamp, source_description }] }`
 *   → 202; each message becomes an episode, processed one by one by the server's queue. `role` has no default in
 *   the DTO (a required, nullable field), so the key is always sent (the speaker's name, or null). No `uuid` is
 *   sent: to Graphiti a uuid means "reprocess the existing episode with this uuid", and an unknown one raises
 *   `NodeNotFoundError` inside the queue worker, which then stops for good while the server goes on answering 202
 *   (getzep/graphiti#1646; `graphiti_core/graphiti.py` `add_episode`, `server/graph_service/routers/ingest.py`
 *   `AsyncWorker.worker` catches only `CancelledError`). The unit id goes in `name` and the batch id in
 *   `source_description`; once processed, the episodes listed with their server-assigned uuids map those uuids back
 *   to units (`resolveIds`), so facts' `episodes` give ranked units, and a resumed run sees which batches landed.
 * - wait: `GET /episodes/{group_id}?last_n=N` until every episode is there (the queue has no status endpoint); an
 *   episode appears only once processed, so a batch whose add failed is looked for until `ingestTimeoutMs` before
 *   it is sent again. The listing holds episodes whose time is not in the future (`retrieve_episodes`
 *   `valid_at <= now`).
 * - search: `POST /search` `{ group_ids: [ns], query, max_facts }` → `{ facts: [{ fact, valid_at, created_at, episodes }] }`;
 *   facts carry no score, so rank order gives one (1/rank). Event time: `valid_at`, else `created_at`.
 * - delete: `DELETE /group/{group_id}`.
 */
import { z } from 'zod';
import { type Call, type MemoryServerApi, parseReply, send, sendAdd, toUtcIso } from '../memory-server/api.ts';

const EpisodeSchema = z.looseObject({
  uuid: z.string(),
  name: z.string().nullish(),
  source_description: z.string().nullish(),
});
const FactSchema = z.looseObject({
  fact: z.string(),
  valid_at: z.string().nullish(),
  created_at: z.string().nullish(),
  episodes: z.array(z.string()).default([]),
});
const SearchSchema = z.looseObject({ facts: z.array(FactSchema) });
const BATCH_PREFIX = 'adaptmr ';

export function createGraphitiApi(): MemoryServerApi {
  const label = 'zep:graphiti';
  const episodes = async (ns: string, c: Call, lastN: number) =>
    parseReply(
      z.array(EpisodeSchema),
      (await send(c, { method: 'GET', path: `/episodes/${encodeURIComponent(ns)}`, query: { last_n: lastN } })).body,
      label,
      'GET /episodes/{group_id}',
    );
  return {
    label,
    output: 'units',
    maxBatch: 20,
    visibility: 'after-processing',
    ingestSettings: { episodes: 'message-v1' },
    searchSettings: {},
    async health(c) {
      await send(c, { method: 'GET', path: '/healthcheck', maxRetries: 1 });
    },
    prepare: async () => ({}),
    async addBatch(ns, _state, batch, c) {
      const messages = batch.messages.map((m) => ({
        content: m.text,
        name: m.unitId,
        role_type: m.role,
        role: m.speaker ?? null,
        timestamp: m.at,
        source_description: `${BATCH_PREFIX}${batch.id}`,
      }));
      await sendAdd(c, { method: 'POST', path: '/messages', body: { group_id: ns, messages } });
      return { handles: [], ids: {} };
    },
    async landedBatches(ns, _state, c) {
      const out = new Map<string, Record<string, string>>();
      for (const e of await episodes(ns, c, 1_000_000)) {
        const d = e.source_description ?? '';
        if (!d.startsWith(BATCH_PREFIX) || !e.name) continue;
        const b = d.slice(BATCH_PREFIX.length);
        out.set(b, { ...out.get(b), [e.uuid]: e.name });
      }
      return out;
    },
    async resolveIds(ns, _state, c) {
      const ids: Record<string, string> = {};
      for (const e of await episodes(ns, c, 1_000_000))
        if (e.name && (e.source_description ?? '').startsWith(BATCH_PREFIX)) ids[e.uuid] = e.name;
      return ids;
    },
    async processed(ns, _state, _receipts, expected, c) {
      return (await episodes(ns, c, expected)).length >= expected ? { done: true } : { done: false };
    },
    count: async (ns, _state, c) => (await episodes(ns, c, 1_000_000)).length,
    async search(ns, _state, query, k, c) {
      const res = await send(c, {
        method: 'POST',
        path: '/search',
        body: { group_ids: [ns], query: query.text, max_facts: k },
      });
      return parseReply(SearchSchema, res.body, label, 'POST /search').facts.map((f, i) => {
        const at = toUtcIso(f.valid_at ?? f.created_at);
        return { text: f.fact, score: 1 / (i + 1), ...(at ? { at } : {}), sources: f.episodes };
      });
    },
    async remove(ns, _state, c) {
      await send(c, { method: 'DELETE', path: `/group/${encodeURIComponent(ns)}` });
    },
  };
}
