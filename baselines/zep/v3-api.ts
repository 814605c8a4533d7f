/**
 * Zep Cloud v3 (getzep/zep-js at commit 3bbc802b2e675536f4798edc0c5ae92b39afa0f6, v3.23: `src/api/resources/{user,
 * thread,graph,task}/client/Client.ts`, `src/api/types/{Message,AddThreadMessagesResponse,GraphSearchResults,
 * EntityEdge,Episode}.ts`; the SDK's environment is `https://api.getzep.com/api/v2`). Auth `Authorization: Api-Key <key>`.
 * Wire names are snake_case (the SDK's serializers map `createdAt` → `created_at`).
 *
 * - prepare: `POST /users` `{ user_id }`, `POST /threads` `{ thread_id, user_id }` (ids are ours; 400/409 on resume
 *   when they exist already are accepted).
 * - add: `POST /threads/{thread_id}/messages` `{ messages: [{ role, name, content, created_at, metadata }] }` →
 *   `{ message_uuids, task_id }`; `created_at` is the session date; metadata `{ unit_id, batch }`.
 *   Processing: `GET /tasks/{task_id}` until its status is completed (or failed).
 * - list: `GET /threads/{thread_id}/messages?limit=&cursor=` (resume, counts).
 * - search: `POST /graph/search` `{ user_id, query, scope, reranker, limit ≤ 50 }` → `edges` (facts; `episodes` =
 *   source episode UUIDs) or `episodes`. A thread message's episode carries the message's UUID, which we stored.
 * - delete: `DELETE /users/{user_id}` (removes the user's threads and graph).
 */
import { z } from 'zod';
import { type Call, type MemoryServerApi, parseReply, send, toUtcIso } from '../memory-server/api.ts';
import { searchHits, type ZepScope } from './search-hits.ts';
import { zepProcessed } from './task-status.ts';

const AddSchema = z.looseObject({ message_uuids: z.array(z.string()).nullish(), task_id: z.string().nullish() });
const MessagesSchema = z.looseObject({
  messages: z.array(z.looseObject({ uuid: z.string().nullish(), metadata: z.record(z.string(), z.unknown()).nullish(), processed: z.boolean().nullish() })).nullish(),
  total_count: z.number().nullish(),
});

/** Zep caps a graph search at 50 results and its query at 400 characters. */
export const ZEP_MAX_LIMIT = 50;
export const ZEP_MAX_QUERY = 400;

export function createZepV3Api(o: { scope: ZepScope; reranker: string }): MemoryServerApi {
  const label = 'zep:v3';
  const done = new Set<string>();
  const listMessages = async (ns: string, c: Call) => {
    const all: NonNullable<z.infer<typeof MessagesSchema>['messages']> = [];
    for (let cursor = 1; ; cursor++) {
      const res = await send(c, { method: 'GET', path: `/threads/${encodeURIComponent(ns)}/messages`, query: { limit: 100, cursor } });
      const page = parseReply(MessagesSchema, res.body, label, 'GET /threads/{id}/messages').messages ?? [];
      all.push(...page);
      if (page.length < 100) return all;
    }
  };
  return {
    label,
    output: 'units',
    maxBatch: 30,
    ingestSettings: { thread: 'one-per-haystack-v1' },
    searchSettings: { scope: o.scope, reranker: o.reranker },
    async health(c) {
      await send(c, { method: 'GET', path: '/users/adaptmr-health-check', accept: [404], maxRetries: 1 });
    },
    async prepare(ns, c) {
      await send(c, { method: 'POST', path: '/users', body: { user_id: ns }, accept: [400, 409] });
      await send(c, { method: 'POST', path: '/threads', body: { thread_id: ns, user_id: ns }, accept: [400, 409] });
      return { userId: ns, threadId: ns };
    },
    async addBatch(ns, _state, batch, c) {
      const res = await send(c, {
        method: 'POST',
        path: `/threads/${encodeURIComponent(ns)}/messages`,
        body: {
          messages: batch.messages.map((m) => ({
            role: m.role,
            ...(m.speaker ? { name: m.speaker } : {}),
            content: m.text,
            created_at: m.at,
            metadata: { unit_id: m.unitId, batch: batch.id },
          })),
        },
      });
      const r = parseReply(AddSchema, res.body, label, 'POST /threads/{id}/messages');
      const uuids = r.message_uuids ?? [];
      if (uuids.length !== batch.messages.length) throw new Error(`${label}: message add returned ${uuids.length} UUIDs for ${batch.messages.length} messages`);
      return { handles: r.task_id ? [r.task_id] : [], ids: Object.fromEntries(uuids.map((u, i) => [u, batch.messages[i]!.unitId])) };
    },
    async landedBatches(ns, _state, c) {
      const out = new Map<string, Record<string, string>>();
      for (const m of await listMessages(ns, c)) {
        const b = m.metadata?.batch;
        const u = m.metadata?.unit_id;
        if (typeof b === 'string' && typeof u === 'string' && m.uuid) out.set(b, { ...out.get(b), [m.uuid]: u });
      }
      return out;
    },
    async processed(ns, _state, receipts, expected, c) {
      return zepProcessed(receipts, expected, done, () => listMessages(ns, c), c, label, 'GET /tasks/{id}');
    },
    async count(ns, _state, c) {
      const res = await send(c, { method: 'GET', path: `/threads/${encodeURIComponent(ns)}/messages`, query: { limit: 1 } });
      return parseReply(MessagesSchema, res.body, label, 'GET /threads/{id}/messages').total_count ?? 0;
    },
    async search(ns, _state, query, k, c) {
      const body = { user_id: ns, query: query.slice(0, ZEP_MAX_QUERY), scope: o.scope, reranker: o.reranker, limit: Math.min(k, ZEP_MAX_LIMIT) };
      const res = await send(c, { method: 'POST', path: '/graph/search', body });
      const key = o.scope === 'edges' ? 'edges' : 'episodes';
      const items = parseReply(z.looseObject({ [key]: z.array(z.unknown()).nullish() }), res.body, label, 'POST /graph/search')[key] ?? [];
      return searchHits(items, o.scope, label, toUtcIso);
    },
    async remove(ns, _state, c) {
      await send(c, { method: 'DELETE', path: `/users/${encodeURIComponent(ns)}`, accept: [404] });
    },
  };
}
