/**
 * Zep Cloud v3 (getzep/zep-js at commit 3bbc802b2e675536f4798edc0c5ae92b39afa0f6, v3.23: `src/api/resources/{user,
 * thread,graph,task}/client/Client.ts`, `src/api/types/{Message,AddThreadMessagesResponse,GraphSearchResults,
 * EntityEdge,Episode}.ts`; the SDK's environment is `https://api.getzep.com/api/v2`). Auth `Authorization: Api-Key <key>`.
 * Wire names are snake_case (the SDK's serializers map `createdAt` → `created_at`).
 *
 * - prepare: `POST /users` `{ user_id }`, `POST /threads` `{ thread_id, user_id }` (ids are ours). On a resume they
 *   exist already: Zep answers 400 "… already exists …" (getzep/zep@7de18df `legacy/src/store/userstore_common.go`,
 *   "user already exists with user_id: …"), which is accepted; any other refusal (a bad id, a plan limit) is a
 *   SetupError that stops the run with one line instead of failing every question further on.
 * - add: `POST /threads/{thread_id}/messages` `{ messages: [{ role, name, content, created_at, metadata }] }` →
 *   `{ message_uuids, task_id }`; `created_at` is the session date; metadata `{ unit_id, batch }` (and `part` for a
 *   message split under the content cap, 2,500 characters on Zep Cloud's free plan: `maxMessageChars`).
 *   Processing: `GET /tasks/{task_id}` until its status is completed (or failed).
 * - list: `GET /threads/{thread_id}/messages?limit=1` for `total_count`, then `?lastn=<total>` for every message (the
 *   API reference: "Number of most recent messages to return (overrides limit and cursor)"). The reference calls the
 *   integer `cursor` only "Cursor for pagination" — a page number in the code the API descends from, undocumented
 *   for the cloud — so it is not used; a reply with fewer messages than `total_count` is an error, never a guess.
 * - search: `POST /graph/search` `{ user_id, query, scope, reranker, limit ≤ 50 }` → `edges` (facts; `episodes` =
 *   source episode UUIDs) or `episodes`. A thread message's episode carries the message's UUID, which we stored.
 * - delete: `DELETE /users/{user_id}` (removes the user's threads and graph).
 */
import { z } from 'zod';
import { SetupError } from '../../src/core/errors.ts';
import {
  type Call,
  type JsonResponseLike,
  type MemoryServerApi,
  parseReply,
  send,
  sendAdd,
  toUtcIso,
} from '../memory-server/api.ts';
import { searchHits, type ZepScope } from './search-hits.ts';
import { zepProcessed } from './task-status.ts';

const AddSchema = z.looseObject({ message_uuids: z.array(z.string()).nullish(), task_id: z.string().nullish() });
const MessagesSchema = z.looseObject({
  messages: z
    .array(
      z.looseObject({
        uuid: z.string().nullish(),
        metadata: z.record(z.string(), z.unknown()).nullish(),
        processed: z.boolean().nullish(),
      }),
    )
    .nullish(),
  total_count: z.number().nullish(),
});

/** Zep caps a graph search at 50 results and its query at 400 characters. */
export const ZEP_MAX_LIMIT = 50;
export const ZEP_MAX_QUERY = 400;
/** Zep Cloud's cap on a message's content on its free plan, in characters. */
export const ZEP_MAX_MESSAGE_CHARS = 2500;

export interface ZepApiOptions {
  scope: ZepScope;
  reranker: string;
  maxMessageChars: number;
}

/** Cache-key settings for the content cap: none at the default, so keys of earlier runs stay valid. */
export const capSettings = (max: number) => (max === ZEP_MAX_MESSAGE_CHARS ? {} : { maxMessageChars: max });

/** Metadata of a message: its unit, batch and (split messages only) part. */
export const messageMetadata = (m: { unitId: string; part?: { index: number } }, batch: string) => ({
  unit_id: m.unitId,
  batch,
  ...(m.part ? { part: m.part.index } : {}),
});

/** A create that may find its object existing: "already exists" is fine, any other refusal stops the run. */
export function createdOrExisting(res: JsonResponseLike, label: string, what: string): void {
  if (res.status < 300) return;
  const text = JSON.stringify(res.body ?? '');
  if (/already exists/i.test(text)) return;
  throw new SetupError(`${label}: could not create the ${what}: HTTP ${res.status} ${text.slice(0, 300)}`);
}

const label = 'zep:v3';
const path = (ns: string) => `/threads/${encodeURIComponent(ns)}/messages`;

/** The number of messages the thread holds. */
const totalOf = async (ns: string, c: Call) =>
  parseReply(
    MessagesSchema,
    (await send(c, { method: 'GET', path: path(ns), query: { limit: 1 } })).body,
    label,
    'GET /threads/{id}/messages',
  ).total_count ?? 0;

/** Every message of the thread (an error when the server shows fewer than it counts). */
async function listMessages(ns: string, c: Call) {
  const total = await totalOf(ns, c);
  if (total === 0) return [];
  const res = await send(c, { method: 'GET', path: path(ns), query: { lastn: total } });
  const all = parseReply(MessagesSchema, res.body, label, 'GET /threads/{id}/messages').messages ?? [];
  if (all.length < total)
    throw new Error(
      `${label}: thread ${ns} holds ${total} messages but lastn=${total} returned ${all.length}; cannot see them all`,
    );
  return all;
}

/** The namespace's user and its one thread (both named `ns`), created unless they exist. */
async function prepareThread(ns: string, c: Call): Promise<{ userId: string; threadId: string }> {
  createdOrExisting(
    await send(c, { method: 'POST', path: '/users', body: { user_id: ns }, accept: [400, 409] }),
    label,
    `user ${ns}`,
  );
  createdOrExisting(
    await send(c, { method: 'POST', path: '/threads', body: { thread_id: ns, user_id: ns }, accept: [400, 409] }),
    label,
    `thread ${ns}`,
  );
  return { userId: ns, threadId: ns };
}

export function createZepV3Api(o: ZepApiOptions): MemoryServerApi {
  const done = new Set<string>();
  return {
    label,
    output: 'units',
    maxBatch: 30,
    // Thread messages are stored before the add answers; processing into the graph follows.
    visibility: 'immediate',
    maxMessageChars: o.maxMessageChars,
    ingestSettings: { thread: 'one-per-haystack-v1', ...capSettings(o.maxMessageChars) },
    searchSettings: { scope: o.scope, reranker: o.reranker },
    async health(c) {
      await send(c, { method: 'GET', path: '/users/adaptmr-health-check', accept: [404], maxRetries: 1 });
    },
    prepare: (ns, c) => prepareThread(ns, c),
    async addBatch(ns, _state, batch, c) {
      const res = await sendAdd(c, {
        method: 'POST',
        path: path(ns),
        body: {
          messages: batch.messages.map((m) => ({
            role: m.role,
            ...(m.speaker ? { name: m.speaker } : {}),
            content: m.text,
            created_at: m.at,
            metadata: messageMetadata(m, batch.id),
          })),
        },
      });
      const r = parseReply(AddSchema, res.body, label, 'POST /threads/{id}/messages');
      const uuids = r.message_uuids ?? [];
      if (uuids.length !== batch.messages.length)
        throw new Error(`${label}: message add returned ${uuids.length} UUIDs for ${batch.messages.length} messages`);
      return {
        handles: r.task_id ? [r.task_id] : [],
        ids: Object.fromEntries(uuids.map((u, i) => [u, batch.messages[i]!.unitId])),
      };
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
    count: (ns, _state, c) => totalOf(ns, c),
    async search(ns, _state, query, k, c) {
      const body = {
        user_id: ns,
        query: query.text.slice(0, ZEP_MAX_QUERY),
        scope: o.scope,
        reranker: o.reranker,
        limit: Math.min(k, ZEP_MAX_LIMIT),
      };
      const res = await send(c, { method: 'POST', path: '/graph/search', body });
      const key = o.scope === 'edges' ? 'edges' : 'episodes';
      const items =
        parseReply(z.looseObject({ [key]: z.array(z.unknown()).nullish() }), res.body, label, 'POST /graph/search')[
          key
        ] ?? [];
      return searchHits(items, o.scope, label, toUtcIso);
    },
    async remove(ns, _state, c) {
      await send(c, { method: 'DELETE', path: `/users/${encodeURIComponent(ns)}`, accept: [404] });
    },
  };
}
