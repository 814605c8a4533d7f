/**
 * Mem0's open-source REST server (mem0ai/mem0 `server/main.py` at commit 8d5b7865bd0521e75fe9ab1b260eeccc83f8a378).
 * Base URL without `/v1`. Auth: `X-API-Key` (`verify_auth` in `server/auth.py`; Bearer JWTs are the other option).
 *
 * - add: `POST /memories` `{ messages: [{role, content}], user_id, metadata, infer }` (`MemoryCreate`), synchronous.
 *   OSS cannot backdate a memory, so each message's text starts with its session date and speaker, and `metadata`
 *   carries `{ session_id, turn_ids, session_date, batch }` — one request per batch, batches never span sessions.
 * - search: `POST /search` `{ query, filters: { user_id }, top_k, threshold }` (`SearchRequest`). Pydantic ignores
 *   unknown keys (a `limit` is silently dropped) and `Memory.search` filters by `threshold = 0.1` when none is sent
 *   (`mem0/memory/main.py`), so `top_k` and `threshold: 0` are always sent explicitly.
 * - list: `GET /memories?user_id=` (for resume and counts); delete: `DELETE /memories?user_id=` (admin role).
 * - Event time: our `metadata.session_date`; `created_at` is the ingestion time (older servers write it in US/Pacific).
 */
import { z } from 'zod';
import { formatDate } from '../../src/core/render.ts';
import { type Call, type MemoryServerApi, parseReply, send, type ServerHit, toUtcIso } from '../memory-server/api.ts';

const MemorySchema = z.looseObject({
  id: z.string().optional(),
  memory: z.string().nullish(),
  score: z.number().nullish(),
  created_at: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const ResultsSchema = z.looseObject({ results: z.array(MemorySchema) });

export function createMem0OssApi(opts: { infer: boolean }): MemoryServerApi {
  const label = 'mem0:oss';
  const list = async (ns: string, c: Call) =>
    parseReply(ResultsSchema, (await send(c, { method: 'GET', path: '/memories', query: { user_id: ns } })).body, label, 'GET /memories').results;
  return {
    label,
    output: 'text',
    maxBatch: 20,
    ingestSettings: { infer: opts.infer, format: 'dated-text-v1' },
    searchSettings: { threshold: 0 },
    async health(c) {
      await send(c, { method: 'GET', path: '/memories', query: { user_id: 'adaptmr-health-check' }, maxRetries: 1 });
    },
    prepare: async () => ({}),
    async addBatch(ns, _state, batch, c) {
      const first = batch.messages[0]!;
      await send(c, {
        method: 'POST',
        path: '/memories',
        body: {
          messages: batch.messages.map((m) => ({ role: m.role, content: `[${formatDate(m.at)}] ${m.speaker ? `${m.speaker}: ` : ''}${m.text}` })),
          user_id: ns,
          metadata: { session_id: first.sessionId, turn_ids: batch.messages.map((m) => m.unitId), session_date: first.at, batch: batch.id },
          infer: opts.infer,
        },
      });
      return { handles: [], ids: {} };
    },
    async landedBatches(ns, _state, c) {
      const out = new Map<string, Record<string, string>>();
      for (const m of await list(ns, c)) {
        const b = m.metadata?.batch;
        if (typeof b === 'string') out.set(b, {});
      }
      return out;
    },
    processed: async () => ({ done: true }),
    count: async (ns, _state, c) => (await list(ns, c)).length,
    async search(ns, _state, query, k, c) {
      const res = await send(c, { method: 'POST', path: '/search', body: { query, filters: { user_id: ns }, top_k: k, threshold: 0 } });
      return parseReply(ResultsSchema, res.body, label, 'POST /search').results.map((m): ServerHit => {
        const date = m.metadata?.session_date;
        const at = toUtcIso(typeof date === 'string' ? date : m.created_at);
        return { text: m.memory ?? '', score: m.score ?? 0, ...(at ? { at } : {}), sources: [] };
      });
    },
    async remove(ns, _state, c) {
      await send(c, { method: 'DELETE', path: '/memories', query: { user_id: ns } });
    },
  };
}
