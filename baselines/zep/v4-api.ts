/**
 * Zep v4 (the Context API, `https://api.getzep.com/api/v4`). The zep-js mirror read for this adapter holds only the
 * v3 SDK (3bbc802b2e675536f4798edc0c5ae92b39afa0f6), so the shapes follow the v4 API reference pages
 * (help.getzep.com/v4/sdk-reference: thread/create, thread/add-messages, thread/list-messages, graph/search-edges,
 * task/list, user/delete). Auth `Authorization: Api-Key <key>`.
 *
 * - Ids are server-assigned UUIDs: `POST /users` `{ user_id }` → `{ uuid }`; `POST /threads` `{ user_uuid }` →
 *   `{ uuid }`; both are stored (results-file markers) next to our namespace name.
 * - add: `POST /threads/{thread_uuid}/messages` `{ messages: [{ role, name, content, reference_time, metadata }] }` →
 *   202 `{ messages: [{ uuid }], task: { uuid, status } }`; the message UUIDs are stored next to our unit ids.
 *   Messages over the content cap (`maxMessageChars`, 2,500 on the free plan) are split, as for v3.
 *   Processing: `GET /tasks/{task_uuid}` until completed.
 * - list: `GET /threads/{thread_uuid}/messages?page_size=&cursor=` → `{ items, next_cursor }`.
 * - search: `POST /graphs/{graph_uuid}/search/{edges|episodes}?page_size=` `{ query, reranker }` → `{ items,
 *   next_cursor }` (a user's UUID addresses the user's graph); pages are read until k results.
 * - delete: `DELETE /users/{user_uuid}` → 202 with a task (the user's threads and graph go with it).
 */
import { z } from 'zod';
import { type Call, type MemoryServerApi, parseReply, send, sendAdd, toUtcIso } from '../memory-server/api.ts';
import { searchHits } from './search-hits.ts';
import { zepProcessed } from './task-status.ts';
import { capSettings, messageMetadata, ZEP_MAX_LIMIT, ZEP_MAX_QUERY, type ZepApiOptions } from './v3-api.ts';

const CreatedSchema = z.looseObject({ uuid: z.string() });
const AddSchema = z.looseObject({
  messages: z.array(z.looseObject({ uuid: z.string() })),
  task: z.looseObject({ uuid: z.string() }).nullish(),
});
const PageSchema = z.looseObject({ items: z.array(z.unknown()).nullish(), next_cursor: z.string().nullish() });
const MessageSchema = z.looseObject({
  uuid: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  processed: z.boolean().nullish(),
});

const label = 'zep:v4';

/** Every message of the thread, page by page. */
async function listMessages(thread: string, c: Call): Promise<z.infer<typeof MessageSchema>[]> {
  const all: z.infer<typeof MessageSchema>[] = [];
  let cursor: string | undefined;
  do {
    const res = await send(c, {
      method: 'GET',
      path: `/threads/${encodeURIComponent(thread)}/messages`,
      query: { page_size: 100, cursor },
    });
    const page = parseReply(PageSchema, res.body, label, 'GET /threads/{uuid}/messages');
    all.push(...parseReply(z.array(MessageSchema), page.items ?? [], label, 'GET /threads/{uuid}/messages items'));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

/** A server-assigned id the namespace's state must hold. */
function need(state: Record<string, string>, key: string): string {
  const v = state[key];
  if (!v) throw new Error(`${label}: namespace state has no ${key}`);
  return v;
}

/** The first k search results, page by page. */
async function searchItems(
  o: ZepApiOptions,
  state: Record<string, string>,
  text: string,
  k: number,
  c: Call,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  do {
    const res = await send(c, {
      method: 'POST',
      path: `/graphs/${encodeURIComponent(need(state, 'userUuid'))}/search/${o.scope}`,
      query: { page_size: Math.min(k, ZEP_MAX_LIMIT), cursor },
      body: { query: text.slice(0, ZEP_MAX_QUERY), reranker: o.reranker },
    });
    const page = parseReply(PageSchema, res.body, label, `POST /graphs/{uuid}/search/${o.scope}`);
    items.push(...(page.items ?? []));
    cursor = page.next_cursor ?? undefined;
  } while (cursor && items.length < k);
  return items.slice(0, k);
}

export function createZepV4Api(o: ZepApiOptions): MemoryServerApi {
  const done = new Set<string>();
  return {
    label,
    output: 'units',
    maxBatch: 30,
    visibility: 'immediate',
    maxMessageChars: o.maxMessageChars,
    ingestSettings: { thread: 'one-per-haystack-v1', ...capSettings(o.maxMessageChars) },
    searchSettings: { scope: o.scope, reranker: o.reranker },
    async health(c) {
      await send(c, { method: 'GET', path: '/tasks', query: { page_size: 1 }, maxRetries: 1 });
    },
    async prepare(ns, c) {
      const user = parseReply(
        CreatedSchema,
        (await send(c, { method: 'POST', path: '/users', body: { user_id: ns } })).body,
        label,
        'POST /users',
      );
      const thread = parseReply(
        CreatedSchema,
        (await send(c, { method: 'POST', path: '/threads', body: { user_uuid: user.uuid } })).body,
        label,
        'POST /threads',
      );
      return { userUuid: user.uuid, threadUuid: thread.uuid };
    },
    async addBatch(_ns, state, batch, c) {
      const res = await sendAdd(c, {
        method: 'POST',
        path: `/threads/${encodeURIComponent(need(state, 'threadUuid'))}/messages`,
        body: {
          messages: batch.messages.map((m) => ({
            role: m.role,
            ...(m.speaker ? { name: m.speaker } : {}),
            content: m.text,
            reference_time: m.at,
            metadata: messageMetadata(m, batch.id),
          })),
        },
      });
      const r = parseReply(AddSchema, res.body, label, 'POST /threads/{uuid}/messages');
      if (r.messages.length !== batch.messages.length)
        throw new Error(`${label}: message add returned ${r.messages.length} messages for ${batch.messages.length}`);
      return {
        handles: r.task ? [r.task.uuid] : [],
        ids: Object.fromEntries(r.messages.map((m, i) => [m.uuid, batch.messages[i]!.unitId])),
      };
    },
    async landedBatches(_ns, state, c) {
      const out = new Map<string, Record<string, string>>();
      for (const m of await listMessages(need(state, 'threadUuid'), c)) {
        const b = m.metadata?.batch;
        const u = m.metadata?.unit_id;
        if (typeof b === 'string' && typeof u === 'string') out.set(b, { ...out.get(b), [m.uuid]: u });
      }
      return out;
    },
    async processed(_ns, state, receipts, expected, c) {
      return zepProcessed(
        receipts,
        expected,
        done,
        () => listMessages(need(state, 'threadUuid'), c),
        c,
        label,
        'GET /tasks/{uuid}',
      );
    },
    count: async (_ns, state, c) => (await listMessages(need(state, 'threadUuid'), c)).length,
    async search(_ns, state, query, k, c) {
      return searchHits(await searchItems(o, state, query.text, k, c), o.scope, label, toUtcIso);
    },
    async remove(_ns, state, c) {
      await send(c, { method: 'DELETE', path: `/users/${encodeURIComponent(need(state, 'userUuid'))}`, accept: [404] });
    },
  };
}
