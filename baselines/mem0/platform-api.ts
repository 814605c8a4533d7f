/**
 * Mem0 Platform v3 (mem0ai/mem0 `mem0/client/main.py` and `docs/openapi.json` at commit
 * 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378). Base URL `https://api.mem0.ai`; auth `Authorization: Token <key>`.
 *
 * - add: `POST /v3/memories/add/` `{ messages, user_id, metadata, infer, timestamp, observation_date, timezone }` —
 *   entity ids are accepted at the top level here; `timestamp` (Unix seconds) backdates `created_at` to the session
 *   date. Asynchronous: the reply is `{ event_id, status: "PENDING" }`; poll `GET /v1/event/{event_id}/` until
 *   `SUCCEEDED` or `FAILED` (docs/api-reference/memory/add-memories.mdx).
 * - search: `POST /v3/memories/search/` `{ query, filters: { user_id }, top_k, threshold: 0 }` — ids only inside
 *   `filters` (top-level ids are rejected with 400); default threshold 0.1, so 0 is sent.
 * - list: `POST /v3/memories/` `{ filters }` with `page`/`page_size` query parameters, paginated `{ count, next, results }`.
 * - delete: `DELETE /v2/entities/user/{user_id}/` (the client's `delete_users`; the v1 path is older).
 */
import { z } from 'zod';
import {
  type Batch,
  type Call,
  type MemoryServerApi,
  parseReply,
  send,
  sendAdd,
  type ServerHit,
  toUtcIso,
} from '../memory-server/api.ts';

const MemorySchema = z.looseObject({
  id: z.string().optional(),
  memory: z.string().nullish(),
  score: z.number().nullish(),
  created_at: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const PageSchema = z.looseObject({
  count: z.number().optional(),
  next: z.string().nullish(),
  results: z.array(MemorySchema),
});
const AddSchema = z.looseObject({ event_id: z.string(), status: z.string().optional() });
const EventSchema = z.looseObject({
  status: z.enum(['PENDING', 'RUNNING', 'FAILED', 'SUCCEEDED']),
  error: z.string().nullish(),
});

const label = 'mem0:platform';

/** Every memory of the namespace, page by page. */
async function list(ns: string, c: Call): Promise<z.infer<typeof MemorySchema>[]> {
  const all: z.infer<typeof MemorySchema>[] = [];
  for (let page = 1; ; page++) {
    const res = await send(c, {
      method: 'POST',
      path: '/v3/memories/',
      query: { page, page_size: 100 },
      body: { filters: { user_id: ns } },
    });
    const p = parseReply(PageSchema, res.body, label, 'POST /v3/memories/');
    all.push(...p.results);
    if (!p.next || p.results.length === 0) return all;
  }
}

/** The add request of a batch: its messages with their speakers, dated by the session, tagged with the batch id. */
function addBody(ns: string, batch: Batch, infer: boolean) {
  const first = batch.messages[0]!;
  return {
    messages: batch.messages.map((m) => ({
      role: m.role,
      content: m.speaker ? `${m.speaker}: ${m.text}` : m.text,
    })),
    user_id: ns,
    metadata: {
      session_id: first.sessionId,
      turn_ids: batch.messages.map((m) => m.unitId),
      session_date: first.at,
      batch: batch.id,
    },
    infer,
    timestamp: Math.floor(Date.parse(first.at) / 1000),
    observation_date: first.at.slice(0, 10),
    timezone: 'UTC',
  };
}

export function createMem0PlatformApi(opts: { infer: boolean }): MemoryServerApi {
  const succeeded = new Set<string>();
  return {
    label,
    output: 'text',
    maxBatch: 20,
    // An add is an event processed in the background: its memories are listed only once it succeeded.
    visibility: 'after-processing',
    ingestSettings: { infer: opts.infer, format: 'v3-timestamp-v1' },
    searchSettings: { threshold: 0 },
    async health(c) {
      await send(c, { method: 'GET', path: '/v1/ping/', maxRetries: 1 });
    },
    prepare: async () => ({}),
    async addBatch(ns, _state, batch, c) {
      const res = await sendAdd(c, { method: 'POST', path: '/v3/memories/add/', body: addBody(ns, batch, opts.infer) });
      return { handles: [parseReply(AddSchema, res.body, label, 'POST /v3/memories/add/').event_id], ids: {} };
    },
    async landedBatches(ns, _state, c) {
      const out = new Map<string, Record<string, string>>();
      for (const m of await list(ns, c)) if (typeof m.metadata?.batch === 'string') out.set(m.metadata.batch, {});
      return out;
    },
    async processed(_ns, _state, receipts, _expected, c) {
      for (const id of receipts.flatMap((r) => r.handles)) {
        if (succeeded.has(id)) continue;
        const res = await send(c, { method: 'GET', path: `/v1/event/${encodeURIComponent(id)}/` });
        const ev = parseReply(EventSchema, res.body, label, 'GET /v1/event/{id}/');
        if (ev.status === 'FAILED') return { done: false, failed: `event ${id}: ${ev.error ?? 'FAILED'}` };
        if (ev.status !== 'SUCCEEDED') return { done: false };
        succeeded.add(id);
      }
      return { done: true };
    },
    count: async (ns, _state, c) => (await list(ns, c)).length,
    async search(ns, _state, query, k, c) {
      const res = await send(c, {
        method: 'POST',
        path: '/v3/memories/search/',
        body: { query: query.text, filters: { user_id: ns }, top_k: k, threshold: 0 },
      });
      return parseReply(PageSchema, res.body, label, 'POST /v3/memories/search/').results.map((m): ServerHit => {
        const at = toUtcIso(m.created_at);
        return { text: m.memory ?? '', score: m.score ?? 0, ...(at ? { at } : {}), sources: [] };
      });
    },
    async remove(ns, _state, c) {
      await send(c, { method: 'DELETE', path: `/v2/entities/user/${encodeURIComponent(ns)}/`, accept: [404] });
    },
  };
}
