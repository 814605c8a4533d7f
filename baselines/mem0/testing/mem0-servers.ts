/**
 * Stand-ins for Mem0 (the real servers cannot run here), checking each request against the documented shapes
 * (mem0ai/mem0 8d5b7865: `server/main.py` pydantic models; `docs/openapi.json` for Platform v3) and implementing what
 * the adapter relies on:
 *
 * - OSS: `X-API-Key` auth (`server/auth.py`: the `ADMIN_API_KEY` is the admin, other keys are users); `POST /memories`
 *   synchronous; `POST /search` keeps pydantic's behaviour of ignoring unknown keys (a `limit` is dropped, recorded in
 *   `ignoredKeys`), filters by a 0.1 score floor unless `threshold` is sent, and applies metadata equality filters
 *   given in `filters`; `GET /memories?user_id=&top_k=` returns the first 20 memories unless `top_k` asks for more
 *   (`Memory.get_all(top_k=20)`, `Query(le=ALL_MEMORIES_LIMIT = 1000)` in `server/main.py`: more is a 422, and there
 *   is no paging); `DELETE /memories?user_id=` needs the admin role (`require_admin`: 403 otherwise), while
 *   `DELETE /memories/{id}` needs any key. Memories are the messages verbatim ("infer" off).
 * - Platform: `Authorization: Token`; `POST /v3/memories/add/` answers `{ event_id, status: PENDING }` and the event
 *   turns SUCCEEDED after `processingPolls` polls of `GET /v1/event/{id}/` (never, with `neverFinish`); search takes
 *   entity ids only inside `filters` (top-level ids → 400, as documented); paginated `POST /v3/memories/`;
 *   `DELETE /v2/entities/user/{id}/`. `created_at` is backdated by `timestamp`.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type Loopback, overlapScore, startLoopback } from '../../memory-server/testing/loopback.ts';

export interface StoredMemory {
  id: string;
  memory: string;
  user_id: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

export interface Mem0StandIn extends Loopback {
  memories: StoredMemory[];
  /** Unknown keys the OSS server ignored, per request. */
  ignoredKeys: string[][];
  users(): string[];
  /** Platform: events stay PENDING. */
  neverFinish: boolean;
}

const Message = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string() }).strict();

const OssCreate = z
  .object({
    messages: z.array(Message).min(1),
    user_id: z.string().optional(),
    agent_id: z.string().optional(),
    run_id: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    expiration_date: z.string().optional(),
    infer: z.boolean().optional(),
    memory_type: z.string().optional(),
    prompt: z.string().optional(),
  })
  .strict();
const OSS_SEARCH_KEYS = [
  'query',
  'user_id',
  'run_id',
  'agent_id',
  'filters',
  'top_k',
  'threshold',
  'explain',
  'show_expired',
];
const OssSearch = z.looseObject({
  query: z.string(),
  filters: z.looseObject({ user_id: z.string() }),
  top_k: z.number().int().positive().optional(),
  threshold: z.number().optional(),
});
/** server/main.py `ALL_MEMORIES_LIMIT`: the most `GET /memories` returns. */
export const MEM0_OSS_LIST_LIMIT = 1000;
/** `Memory.get_all(top_k=20)`: what `GET /memories` returns when `top_k` is not sent. */
export const MEM0_OSS_LIST_DEFAULT = 20;

function search(
  memories: StoredMemory[],
  user: string,
  query: string,
  topK: number,
  threshold: number,
  where: Record<string, unknown> = {},
) {
  return memories
    .filter((m) => m.user_id === user && Object.entries(where).every(([k, v]) => m.metadata[k] === v))
    .map((m) => ({ ...m, score: overlapScore(query, m.memory) }))
    .filter((m) => m.score >= threshold)
    .sort((a, b) => b.score - a.score)
    .slice(0, topK);
}

/** `key`: a user's API key; `adminKey`: the server's ADMIN_API_KEY (default: none configured). */
export async function startMem0OssStandIn(key?: string, opts: { adminKey?: string } = {}): Promise<Mem0StandIn> {
  const memories: StoredMemory[] = [];
  const ignoredKeys: string[][] = [];
  const keys = [key, opts.adminKey].filter((k): k is string => k !== undefined);
  const server = await startLoopback({
    ...(keys.length > 0 ? { auth: { header: 'x-api-key', value: keys } } : {}),
    routes: [
      {
        method: 'POST',
        path: /^\/memories$/,
        body: OssCreate,
        handle(_p, body) {
          const b = OssCreate.parse(body);
          if (!b.user_id)
            return {
              status: 400,
              body: { detail: 'At least one identifier (user_id, agent_id, run_id) is required.' },
            };
          // `created_at` as Mem0 wrote it for years: US/Pacific wall time with its offset.
          const results = b.messages.map((m) => {
            const mem = {
              id: randomUUID(),
              memory: m.content,
              user_id: b.user_id!,
              metadata: b.metadata ?? {},
              created_at: '2026-11-23T04:00:00-08:00',
            };
            memories.push(mem);
            return { id: mem.id, memory: mem.memory, event: 'ADD' };
          });
          return { body: { results } };
        },
      },
      {
        method: 'POST',
        path: /^\/search$/,
        body: OssSearch,
        handle(_p, body) {
          const b = OssSearch.parse(body);
          ignoredKeys.push(Object.keys(b).filter((k) => !OSS_SEARCH_KEYS.includes(k)));
          const { user_id: user, ...where } = b.filters;
          // Memory.search defaults: top_k 20, threshold 0.1 (mem0/memory/main.py).
          return { body: { results: search(memories, user, b.query, b.top_k ?? 20, b.threshold ?? 0.1, where) } };
        },
      },
      {
        method: 'GET',
        path: /^\/memories$/,
        query: z
          .object({
            user_id: z.string(),
            top_k: z.string().regex(/^\d+$/).optional(),
            show_expired: z.enum(['true', 'false']).optional(),
          })
          .strict(),
        handle(_p, _b, q) {
          const topK = q.top_k === undefined ? MEM0_OSS_LIST_DEFAULT : Number(q.top_k);
          if (topK > MEM0_OSS_LIST_LIMIT)
            return {
              status: 422,
              body: {
                detail: [
                  { loc: ['query', 'top_k'], msg: `Input should be less than or equal to ${MEM0_OSS_LIST_LIMIT}` },
                ],
              },
            };
          return { body: { results: memories.filter((m) => m.user_id === q.user_id).slice(0, topK) } };
        },
      },
      {
        method: 'DELETE',
        path: /^\/memories$/,
        query: z.object({ user_id: z.string() }).strict(),
        handle(_p, _b, q, headers) {
          if (opts.adminKey === undefined || headers['x-api-key'] !== opts.adminKey)
            return { status: 403, body: { detail: 'Admin role required.' } };
          for (let i = memories.length - 1; i >= 0; i--) if (memories[i]!.user_id === q.user_id) memories.splice(i, 1);
          return { body: { message: 'All relevant memories deleted' } };
        },
      },
      {
        method: 'DELETE',
        path: /^\/memories\/([^/]+)$/,
        handle([id]) {
          const i = memories.findIndex((m) => m.id === id);
          if (i < 0) return { status: 404, body: { detail: `Memory with id ${id} not found` } };
          memories.splice(i, 1);
          return { body: { message: 'Memory deleted successfully' } };
        },
      },
    ],
  });
  return Object.assign(server, {
    memories,
    ignoredKeys,
    users: () => [...new Set(memories.map((m) => m.user_id))],
    neverFinish: false,
  });
}

const PlatformAdd = z
  .object({
    messages: z.array(Message).min(1),
    user_id: z.string(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    infer: z.boolean().optional(),
    timestamp: z.number().int().optional(),
    observation_date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    timezone: z.string().optional(),
  })
  .strict();
const PlatformSearch = z
  .object({
    query: z.string().min(1),
    filters: z.object({ user_id: z.string() }).strict(),
    top_k: z.number().int().min(1).max(1000).optional(),
    threshold: z.number().min(0).max(1).optional(),
    // The official client (mem0ai 3.3.1 `MemoryClient.search`) always adds it.
    output_format: z.literal('v1.1').optional(),
  })
  .strict();

export async function startMem0PlatformStandIn(key: string, processingPolls = 1): Promise<Mem0StandIn> {
  const memories: StoredMemory[] = [];
  const events = new Map<string, { polls: number; pending: StoredMemory[] }>();
  const state = { neverFinish: false };
  let standIn: Mem0StandIn | undefined;
  // Events are processed in the background whether or not anyone polls them (one lost to a failed reply included):
  // every status read advances every pending event; each is done after `processingPolls` reads.
  const advance = () => {
    if (standIn?.neverFinish ?? state.neverFinish) return;
    for (const ev of events.values()) {
      if (ev.pending.length === 0) continue;
      ev.polls++;
      if (ev.polls > processingPolls) memories.push(...ev.pending.splice(0));
    }
  };
  const server = await startLoopback({
    auth: { header: 'authorization', value: `Token ${key}` },
    routes: [
      { method: 'GET', path: /^\/v1\/ping\/$/, handle: () => ({ body: { status: 'ok' } }) },
      {
        method: 'POST',
        path: /^\/v3\/memories\/add\/$/,
        body: PlatformAdd,
        handle(_p, body) {
          const b = PlatformAdd.parse(body);
          const created =
            b.timestamp !== undefined ? new Date(b.timestamp * 1000).toISOString() : new Date().toISOString();
          const id = randomUUID();
          events.set(id, {
            polls: 0,
            pending: b.messages.map((m) => ({
              id: randomUUID(),
              memory: m.content,
              user_id: b.user_id,
              metadata: b.metadata ?? {},
              created_at: created,
            })),
          });
          return { body: { event_id: id, status: 'PENDING' } };
        },
      },
      {
        method: 'GET',
        path: /^\/v1\/event\/([^/]+)\/$/,
        handle([id]) {
          const ev = events.get(id!);
          if (!ev) return { status: 404, body: { error: 'Event not found' } };
          advance();
          return { body: { id, status: ev.pending.length > 0 ? 'RUNNING' : 'SUCCEEDED' } };
        },
      },
      {
        method: 'POST',
        path: /^\/v3\/memories\/search\/$/,
        body: PlatformSearch,
        handle(_p, body) {
          const b = PlatformSearch.parse(body);
          return { body: { results: search(memories, b.filters.user_id, b.query, b.top_k ?? 10, b.threshold ?? 0.1) } };
        },
      },
      {
        method: 'POST',
        path: /^\/v3\/memories\/$/,
        body: z.object({ filters: z.object({ user_id: z.string() }).strict() }).strict(),
        query: z.object({ page: z.string().regex(/^\d+$/), page_size: z.string().regex(/^\d+$/) }).strict(),
        handle(_p, body, q) {
          const user = (body as { filters: { user_id: string } }).filters.user_id;
          advance();
          const all = memories.filter((m) => m.user_id === user);
          const size = Number(q.page_size);
          const page = Number(q.page);
          const results = all.slice((page - 1) * size, page * size);
          return {
            body: {
              count: all.length,
              next: page * size < all.length ? `page=${page + 1}` : null,
              previous: null,
              results,
            },
          };
        },
      },
      {
        method: 'DELETE',
        path: /^\/v2\/entities\/user\/([^/]+)\/$/,
        handle([user]) {
          for (let i = memories.length - 1; i >= 0; i--) if (memories[i]!.user_id === user) memories.splice(i, 1);
          return { body: { message: 'Delete in progress.' } };
        },
      },
    ],
  });
  standIn = Object.assign(server, {
    memories,
    ignoredKeys: [],
    users: () => [...new Set(memories.map((m) => m.user_id))],
    neverFinish: false,
  });
  return standIn;
}
