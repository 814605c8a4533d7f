/**
 * Mem0's open-source REST server (mem0ai/mem0 `server/main.py` at commit 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378).
 * Base URL without `/v1`. Auth: `X-API-Key` (`verify_auth` in `server/auth.py`; Bearer JWTs are the other option).
 *
 * - add: `POST /memories` `{ messages: [{role, content}], user_id, metadata, infer }` (`MemoryCreate`), synchronous.
 *   OSS cannot backdate a memory, so each message's text starts with its session date and speaker (what fact
 *   extraction sees), and `metadata` carries `{ session_id, turn_ids, session_date, batch }` — one request per batch,
 *   batches never span sessions. A search hit's text loses that leading date again: the rendered context dates each
 *   memory once, from `session_date`.
 * - search: `POST /search` `{ query, filters: { user_id }, top_k, threshold }` (`SearchRequest`). Pydantic ignores
 *   unknown keys (a `limit` is silently dropped) and `Memory.search` filters by `threshold = 0.1` when none is sent
 *   (`mem0/memory/main.py`), so `top_k` and `threshold: 0` are always sent explicitly. Other keys in `filters` are
 *   metadata equality filters.
 * - list: `GET /memories?user_id=&top_k=`. Without `top_k` the server returns 20 (`Memory.get_all(top_k=20)`); it
 *   allows at most `ALL_MEMORIES_LIMIT = 1000` (`Query(le=…)`) and has no paging. So the list asks for 1,000 and,
 *   when it gets 1,000, knows it may not see everything: whether a batch landed is then asked of the server by a
 *   search filtered on the batch's metadata (`filters: { user_id, batch }`).
 * - delete: `DELETE /memories?user_id=` needs the admin role (`require_admin`); with a user's key it answers 403, and
 *   the namespace is deleted memory by memory (`DELETE /memories/{id}`, any key), page by page.
 * - Event time: our `metadata.session_date`; `created_at` is the ingestion time (older servers write it in US/Pacific).
 */
import { z } from 'zod';
import { formatDate } from '../../src/core/render.ts';
import {
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
const ResultsSchema = z.looseObject({ results: z.array(MemorySchema) });
type Memory = z.infer<typeof MemorySchema>;

/** server/main.py `ALL_MEMORIES_LIMIT`: the most one `GET /memories` returns. */
export const OSS_LIST_LIMIT = 1000;

/** The date prefix `addBatch` writes, at the start of a memory's text. */
const DATE_PREFIX = /^\[\d{4}\/\d\d\/\d\d \(\w{3}\) \d\d:\d\d\] /;

const label = 'mem0:oss';

/** The namespace's memories, as many as one request returns; `complete` is false when there may be more. */
async function list(ns: string, c: Call): Promise<{ memories: Memory[]; complete: boolean }> {
  const res = await send(c, { method: 'GET', path: '/memories', query: { user_id: ns, top_k: OSS_LIST_LIMIT } });
  const memories = parseReply(ResultsSchema, res.body, label, 'GET /memories').results;
  return { memories, complete: memories.length < OSS_LIST_LIMIT };
}

const content = (m: { at: string; speaker?: string; text: string }) =>
  `[${formatDate(m.at)}] ${m.speaker ? `${m.speaker}: ` : ''}${m.text}`;

/** The batches among `candidates` the namespace already holds: from its list, else asked one by one by metadata. */
async function landedBatches(
  ns: string,
  c: Call,
  candidates: readonly { id: string; messages: { at: string; speaker?: string; text: string }[] }[],
): Promise<Map<string, Record<string, string>>> {
  const out = new Map<string, Record<string, string>>();
  const { memories, complete } = await list(ns, c);
  for (const m of memories) {
    const b = m.metadata?.batch;
    if (typeof b === 'string') out.set(b, {});
  }
  if (complete) return out;
  // More memories than one list shows: ask for each candidate batch by its metadata.
  for (const b of candidates) {
    if (out.has(b.id)) continue;
    const res = await send(c, {
      method: 'POST',
      path: '/search',
      body: { query: content(b.messages[0]!), filters: { user_id: ns, batch: b.id }, top_k: 1, threshold: 0 },
    });
    if (parseReply(ResultsSchema, res.body, label, 'POST /search').results.length > 0) out.set(b.id, {});
  }
  return out;
}

/** A memory as a hit, dated by its session (else its creation), its text without the date prefix addBatch wrote. */
function toHit(m: Memory): ServerHit {
  const date = m.metadata?.session_date;
  const at = toUtcIso(typeof date === 'string' ? date : m.created_at);
  return {
    text: (m.memory ?? '').replace(DATE_PREFIX, ''),
    score: m.score ?? 0,
    ...(at ? { at } : {}),
    sources: [],
  };
}

/**
 * Deletes the namespace's memories: all at once, or — not the admin — one memory at a time, a list (≤ 1,000) per
 * round, until none is left or a round deletes none.
 */
async function removeAll(ns: string, c: Call): Promise<void> {
  const all = await send(c, { method: 'DELETE', path: '/memories', query: { user_id: ns }, accept: [403] });
  if (all.status !== 403) return;
  let before = '';
  for (;;) {
    const { memories } = await list(ns, c);
    const ids = memories.map((m) => m.id).filter((id): id is string => id !== undefined);
    if (ids.length === 0) return;
    if (ids.join(',') === before)
      throw new Error(`${label}: memories of ${ns} are still listed after deleting them one by one`);
    before = ids.join(',');
    for (const id of ids)
      await send(c, { method: 'DELETE', path: `/memories/${encodeURIComponent(id)}`, accept: [404] });
  }
}

export function createMem0OssApi(opts: { infer: boolean }): MemoryServerApi {
  return {
    label,
    output: 'text',
    maxBatch: 20,
    visibility: 'immediate',
    ingestSettings: { infer: opts.infer, format: 'dated-text-v1' },
    // `text: undated`: hits lose the date prefix (the context dates each memory once); cached hits of earlier
    // versions kept it, so they are not reused.
    searchSettings: { threshold: 0, text: 'undated' },
    async health(c) {
      await send(c, { method: 'GET', path: '/memories', query: { user_id: 'adaptmr-health-check' }, maxRetries: 1 });
    },
    prepare: async () => ({}),
    async addBatch(ns, _state, batch, c) {
      const first = batch.messages[0]!;
      await sendAdd(c, {
        method: 'POST',
        path: '/memories',
        body: {
          messages: batch.messages.map((m) => ({ role: m.role, content: content(m) })),
          user_id: ns,
          metadata: {
            session_id: first.sessionId,
            turn_ids: batch.messages.map((m) => m.unitId),
            session_date: first.at,
            batch: batch.id,
          },
          infer: opts.infer,
        },
      });
      return { handles: [], ids: {} };
    },
    landedBatches: (ns, _state, c, candidates) => landedBatches(ns, c, candidates),
    processed: async () => ({ done: true }),
    async count(ns, _state, c) {
      const { memories, complete } = await list(ns, c);
      if (!complete)
        throw new Error(
          `${label}: namespace ${ns} holds ${OSS_LIST_LIMIT} memories or more, more than GET /memories lists`,
        );
      return memories.length;
    },
    async search(ns, _state, query, k, c) {
      const res = await send(c, {
        method: 'POST',
        path: '/search',
        body: { query: query.text, filters: { user_id: ns }, top_k: k, threshold: 0 },
      });
      return parseReply(ResultsSchema, res.body, label, 'POST /search').results.map(toHit);
    },
    remove: (ns, _state, c) => removeAll(ns, c),
  };
}
