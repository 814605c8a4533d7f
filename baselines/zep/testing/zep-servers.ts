/**
 * Stand-ins for Zep Cloud v3, the v4 API and the Graphiti server (none can run here), checking each request against
 * the documented shapes (zep-js 3bbc802b for v3; the v4 API reference for v4; graphiti 993e081a `server/graph_service`
 * DTOs) and implementing what the adapters rely on: asynchronous processing (a task — or, for Graphiti, the episode
 * queue — finishes after `processingPolls` status polls; never with `neverFinish`), 202 replies, paging (v3 cursor
 * pages, v4 opaque cursors), server-assigned UUIDs (v4), `limit ≤ 50` and ids only where the API takes them, and
 * Zep Cloud's cap on a message's content (2,500 characters on the free plan: a longer message is refused with 400).
 * v3's message-list `cursor` is a 1-based page number here, as in the code Zep's API descends from
 * (getzep/zep@7de18df `legacy/src/store/message_common.go`, `Offset((currentPage - 1) * pageSize)`); the cloud API
 * reference only calls it "Cursor for pagination", so the adapter does not rely on it (it reads `lastn`).
 * Every message becomes an episode; a search returns one fact (edge) per matching processed episode, citing it.
 * Processing advances on any status read of the owner's data (task, message list, episode list), as a real
 * server's background queue advances whatever the client polls.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type Loopback, overlapScore, startLoopback } from '../../memory-server/testing/loopback.ts';

export interface StoredEpisode {
  uuid: string;
  /** v3 user id / v4 user UUID / Graphiti group id. */
  owner: string;
  content: string;
  role: string;
  name?: string | null;
  at: string;
  metadata: Record<string, unknown>;
  sourceDescription?: string;
  /** Status polls left before it is processed. */
  remaining: number;
  task?: string;
}

export interface ZepStandIn extends Loopback {
  episodes: StoredEpisode[];
  neverFinish: boolean;
  /** Owners (users / groups) that still exist. */
  owners(): string[];
}

const Role = z.enum(['norole', 'system', 'assistant', 'user', 'function', 'tool']);

/** Zep Cloud's per-message content cap (free plan), in characters (code points). */
export const ZEP_MESSAGE_CAP = 2500;

/** The 400 Zep answers for a message over the cap, or undefined. */
function overCap(messages: readonly { content: string }[]): { status: number; body: unknown } | undefined {
  const i = messages.findIndex((m) => [...m.content].length > ZEP_MESSAGE_CAP);
  return i < 0
    ? undefined
    : {
        status: 400,
        body: { message: `messages[${i}].content exceeds the maximum length of ${ZEP_MESSAGE_CAP} characters` },
      };
}

function poll(s: { neverFinish: boolean }, eps: StoredEpisode[]): void {
  if (s.neverFinish) return;
  for (const e of eps) if (e.remaining > 0) e.remaining--;
}

function ranked(eps: StoredEpisode[], owner: string, query: string) {
  return eps
    .filter((e) => e.owner === owner && e.remaining === 0)
    .map((e) => ({ e, score: overlapScore(query, e.content) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score);
}

const edge = (e: StoredEpisode, score: number, episodesKey: 'episodes' | 'episode_uuids') => ({
  uuid: `edge-${e.uuid}`,
  name: 'MENTIONS',
  fact: `${e.name ? `${e.name}: ` : ''}${e.content}`,
  created_at: new Date().toISOString(),
  valid_at: e.at,
  source_node_uuid: randomUUID(),
  target_node_uuid: randomUUID(),
  [episodesKey]: [e.uuid],
  score,
});

export async function startZepV3StandIn(key: string, processingPolls = 1): Promise<ZepStandIn> {
  const episodes: StoredEpisode[] = [];
  const users = new Set<string>();
  const threads = new Map<string, string>();
  const self = { neverFinish: false };
  const Msg = z
    .object({
      role: Role,
      name: z.string().optional(),
      content: z.string(),
      created_at: z.string().datetime().optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .strict();
  const server = await startLoopback({
    prefix: '/api/v2',
    auth: { header: 'authorization', value: `Api-Key ${key}` },
    routes: [
      {
        method: 'GET',
        path: /^\/users\/([^/]+)$/,
        handle: ([id]) =>
          users.has(id!) ? { body: { user_id: id } } : { status: 404, body: { message: 'not found' } },
      },
      {
        method: 'POST',
        path: /^\/users$/,
        body: z
          .object({
            user_id: z.string(),
            email: z.string().optional(),
            first_name: z.string().optional(),
            last_name: z.string().optional(),
            metadata: z.record(z.string(), z.unknown()).optional(),
          })
          .strict(),
        handle(_p, b) {
          const id = (b as { user_id: string }).user_id;
          if (users.has(id)) return { status: 400, body: { message: `user already exists with user_id: ${id}` } };
          users.add(id);
          return { status: 201, body: { user_id: id, uuid: randomUUID() } };
        },
      },
      {
        method: 'POST',
        path: /^\/threads$/,
        body: z.object({ thread_id: z.string(), user_id: z.string() }).strict(),
        handle(_p, b) {
          const { thread_id, user_id } = b as { thread_id: string; user_id: string };
          if (!users.has(user_id)) return { status: 404, body: { message: 'user not found' } };
          if (threads.has(thread_id))
            return { status: 400, body: { message: `thread already exists with thread_id: ${thread_id}` } };
          threads.set(thread_id, user_id);
          return { status: 201, body: { thread_id, user_id, uuid: randomUUID() } };
        },
      },
      {
        method: 'POST',
        path: /^\/threads\/([^/]+)\/messages$/,
        body: z
          .object({
            messages: z.array(Msg).min(1),
            ignore_roles: z.array(Role).optional(),
            return_context: z.boolean().optional(),
          })
          .strict(),
        handle([thread], b) {
          const owner = threads.get(thread!);
          if (!owner) return { status: 404, body: { message: 'thread not found' } };
          const refused = overCap((b as { messages: z.infer<typeof Msg>[] }).messages);
          if (refused) return refused;
          const task = randomUUID();
          const uuids = (b as { messages: z.infer<typeof Msg>[] }).messages.map((m) => {
            const uuid = randomUUID();
            episodes.push({
              uuid,
              owner,
              content: m.content,
              role: m.role,
              name: m.name ?? null,
              at: m.created_at ?? new Date().toISOString(),
              metadata: m.metadata ?? {},
              remaining: processingPolls,
              task,
            });
            return uuid;
          });
          return { body: { message_uuids: uuids, task_id: task } };
        },
      },
      {
        method: 'GET',
        path: /^\/tasks\/([^/]+)$/,
        handle([task]) {
          const eps = episodes.filter((e) => e.task === task);
          if (eps.length === 0) return { status: 404, body: { message: 'task not found' } };
          poll(
            self,
            episodes.filter((e) => e.owner === eps[0]!.owner),
          );
          return { body: { task_id: task, status: eps.every((e) => e.remaining === 0) ? 'completed' : 'in_progress' } };
        },
      },
      {
        method: 'GET',
        path: /^\/threads\/([^/]+)\/messages$/,
        query: z
          .object({
            limit: z.string().regex(/^\d+$/).optional(),
            cursor: z.string().regex(/^\d+$/).optional(),
            lastn: z.string().regex(/^\d+$/).optional(),
          })
          .strict(),
        handle([thread], _b, q) {
          const owner = threads.get(thread!);
          if (!owner) return { status: 404, body: { message: 'thread not found' } };
          const all = episodes.filter((e) => e.owner === owner);
          poll(self, all);
          const limit = Number(q.limit ?? 100);
          const page = Number(q.cursor ?? 1);
          // `lastn`: the most recent messages, oldest first; it overrides limit and cursor (API reference).
          const picked =
            q.lastn !== undefined
              ? all.slice(Math.max(0, all.length - Number(q.lastn)))
              : all.slice((page - 1) * limit, page * limit);
          const messages = picked.map((e) => ({
            uuid: e.uuid,
            role: e.role,
            content: e.content,
            metadata: e.metadata,
            created_at: e.at,
            processed: e.remaining === 0,
          }));
          return { body: { messages, total_count: all.length, row_count: messages.length } };
        },
      },
      {
        method: 'POST',
        path: /^\/graph\/search$/,
        body: z
          .object({
            user_id: z.string().optional(),
            graph_id: z.string().optional(),
            query: z.string().min(1).max(400),
            scope: z.enum(['edges', 'nodes', 'episodes']).optional(),
            reranker: z.enum(['rrf', 'mmr', 'node_distance', 'episode_mentions', 'cross_encoder']).optional(),
            limit: z.number().int().min(1).max(50).optional(),
          })
          .strict()
          .refine((b) => (b.user_id === undefined) !== (b.graph_id === undefined), 'exactly one of user_id, graph_id'),
        handle(_p, body) {
          const b = body as { user_id: string; query: string; scope?: string; limit?: number };
          const hits = ranked(episodes, b.user_id, b.query).slice(0, b.limit ?? 10);
          if (b.scope === 'episodes')
            return {
              body: {
                episodes: hits.map(({ e, score }) => ({ uuid: e.uuid, content: e.content, created_at: e.at, score })),
              },
            };
          return { body: { edges: hits.map(({ e, score }) => edge(e, score, 'episodes')) } };
        },
      },
      {
        method: 'DELETE',
        path: /^\/users\/([^/]+)$/,
        handle([id]) {
          if (!users.delete(id!)) return { status: 404, body: { message: 'not found' } };
          for (const [t, u] of threads) if (u === id) threads.delete(t);
          for (let i = episodes.length - 1; i >= 0; i--) if (episodes[i]!.owner === id) episodes.splice(i, 1);
          return { body: { message: 'deleted' } };
        },
      },
    ],
  });
  const standIn = Object.assign(server, { episodes, owners: () => [...users] });
  return Object.defineProperty(standIn, 'neverFinish', {
    get: () => self.neverFinish,
    set: (v: boolean) => void (self.neverFinish = v),
    enumerable: true,
  }) as ZepStandIn;
}

const cursorOf = (n: number) => Buffer.from(`o:${n}`).toString('base64url');
const offsetOf = (c: string | undefined) => (c ? Number(Buffer.from(c, 'base64url').toString().slice(2)) : 0);

export async function startZepV4StandIn(key: string, processingPolls = 1): Promise<ZepStandIn> {
  const episodes: StoredEpisode[] = [];
  const users = new Map<string, string>(); // uuid → user_id
  const threads = new Map<string, string>(); // uuid → user uuid
  const tasks = new Set<string>();
  const self = { neverFinish: false };
  const Page = z
    .object({
      page_size: z
        .string()
        .regex(/^\d+$/)
        .refine((s) => Number(s) >= 1 && Number(s) <= 100)
        .optional(),
      cursor: z.string().optional(),
    })
    .strict();
  const Msg = z
    .object({
      role: Role,
      name: z.string().optional(),
      content: z.string(),
      reference_time: z.string().datetime().optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    })
    .strict();
  const page = <T>(all: T[], q: Record<string, string>, max: number) => {
    const size = Math.min(Number(q.page_size ?? 50), max);
    const from = offsetOf(q.cursor);
    return {
      items: all.slice(from, from + size),
      ...(from + size < all.length ? { next_cursor: cursorOf(from + size) } : {}),
    };
  };
  const server = await startLoopback({
    prefix: '/api/v4',
    auth: { header: 'authorization', value: `Api-Key ${key}` },
    routes: [
      {
        method: 'GET',
        path: /^\/tasks$/,
        query: Page,
        handle: (_p, _b, q) => ({
          body: page(
            [...tasks].map((uuid) => ({ uuid })),
            q,
            100,
          ),
        }),
      },
      {
        method: 'POST',
        path: /^\/users$/,
        body: z
          .object({
            user_id: z.string(),
            email: z.string().optional(),
            first_name: z.string().optional(),
            last_name: z.string().optional(),
          })
          .strict(),
        handle(_p, b) {
          const uuid = randomUUID();
          users.set(uuid, (b as { user_id: string }).user_id);
          return { status: 201, body: { uuid, user_id: (b as { user_id: string }).user_id, graph_uuid: uuid } };
        },
      },
      {
        method: 'POST',
        path: /^\/threads$/,
        body: z.object({ user_uuid: z.string().uuid(), thread_id: z.string().optional() }).strict(),
        handle(_p, b) {
          const user = (b as { user_uuid: string }).user_uuid;
          if (!users.has(user)) return { status: 404, body: { message: 'user not found' } };
          const uuid = randomUUID();
          threads.set(uuid, user);
          return { status: 201, body: { uuid, user_uuid: user, graph_uuid: user } };
        },
      },
      {
        method: 'POST',
        path: /^\/threads\/([^/]+)\/messages$/,
        body: z
          .object({
            messages: z.array(Msg).min(1),
            ignore_roles: z.array(z.string()).optional(),
            return_context: z.boolean().optional(),
            strict_ontology: z.boolean().optional(),
          })
          .strict(),
        handle([thread], b) {
          const owner = threads.get(thread!);
          if (!owner) return { status: 404, body: { message: 'thread not found' } };
          const refused = overCap((b as { messages: z.infer<typeof Msg>[] }).messages);
          if (refused) return refused;
          const task = randomUUID();
          tasks.add(task);
          const messages = (b as { messages: z.infer<typeof Msg>[] }).messages.map((m) => {
            const uuid = randomUUID();
            episodes.push({
              uuid,
              owner,
              content: m.content,
              role: m.role,
              name: m.name ?? null,
              at: m.reference_time ?? new Date().toISOString(),
              metadata: m.metadata ?? {},
              remaining: processingPolls,
              task,
            });
            return { uuid, role: m.role, content: m.content, thread_uuid: thread };
          });
          return { status: 202, body: { messages, task: { uuid: task, status: 'pending' } } };
        },
      },
      {
        method: 'GET',
        path: /^\/tasks\/([^/]+)$/,
        handle([task]) {
          if (!tasks.has(task!)) return { status: 404, body: { message: 'task not found' } };
          const eps = episodes.filter((e) => e.task === task);
          if (eps[0])
            poll(
              self,
              episodes.filter((e) => e.owner === eps[0]!.owner),
            );
          return { body: { uuid: task, status: eps.every((e) => e.remaining === 0) ? 'completed' : 'running' } };
        },
      },
      {
        method: 'GET',
        path: /^\/threads\/([^/]+)\/messages$/,
        query: Page,
        handle([thread], _b, q) {
          const owner = threads.get(thread!);
          if (!owner) return { status: 404, body: { message: 'thread not found' } };
          poll(
            self,
            episodes.filter((e) => e.owner === owner),
          );
          return {
            body: page(
              episodes
                .filter((e) => e.owner === owner)
                .map((e) => ({
                  uuid: e.uuid,
                  role: e.role,
                  content: e.content,
                  metadata: e.metadata,
                  reference_time: e.at,
                  processed: e.remaining === 0,
                })),
              q,
              100,
            ),
          };
        },
      },
      {
        method: 'POST',
        path: /^\/graphs\/([^/]+)\/search\/(edges|nodes|episodes)$/,
        query: z
          .object({
            page_size: z
              .string()
              .regex(/^\d+$/)
              .refine((s) => Number(s) >= 1 && Number(s) <= 50, 'page_size 1-50')
              .optional(),
            cursor: z.string().optional(),
          })
          .strict(),
        body: z
          .object({
            query: z.string().min(1).max(400),
            reranker: z.enum(['rrf', 'mmr', 'node_distance', 'episode_mentions', 'cross_encoder']).optional(),
          })
          .strict(),
        handle([graph, scope], body, q) {
          if (!users.has(graph!)) return { status: 404, body: { message: 'graph not found' } };
          const hits = ranked(episodes, graph!, (body as { query: string }).query).slice(0, 100);
          const items: unknown[] =
            scope === 'episodes'
              ? hits.map(({ e, score }) => ({ uuid: e.uuid, content: e.content, created_at: e.at, score }))
              : hits.map(({ e, score }) => edge(e, score, 'episode_uuids'));
          return { body: page(items, q, 50) };
        },
      },
      {
        method: 'DELETE',
        path: /^\/users\/([^/]+)$/,
        handle([id]) {
          if (!users.delete(id!)) return { status: 404, body: { message: 'not found' } };
          for (const [t, u] of threads) if (u === id) threads.delete(t);
          for (let i = episodes.length - 1; i >= 0; i--) if (episodes[i]!.owner === id) episodes.splice(i, 1);
          return { status: 202, body: { task: { uuid: randomUUID(), status: 'pending' } } };
        },
      },
    ],
  });
  const standIn = Object.assign(server, { episodes, owners: () => [...users.values()] });
  return Object.defineProperty(standIn, 'neverFinish', {
    get: () => self.neverFinish,
    set: (v: boolean) => void (self.neverFinish = v),
    enumerable: true,
  }) as ZepStandIn;
}

/**
 * The Graphiti server as `server/graph_service` runs it (getzep/graphiti@993e081a): `POST /messages` puts one job per
 * message on an in-process `asyncio.Queue` and answers 202 at once (`routers/ingest.py`); a single worker takes the
 * jobs in order, and each becomes an episode only when processed (`Graphiti.add_episode`). A message carrying a
 * `uuid` means "reprocess the existing episode with this uuid" (`EpisodicNode.get_by_uuid`, which raises
 * `NodeNotFoundError` for an unknown one; getzep/graphiti#1646, fix PR #1648 unmerged); the worker's loop catches
 * only `CancelledError`, so that exception ends the worker task for good: every later job stays queued, nothing is
 * saved, and the server keeps answering 202 — silently, as the real one does (`workerDied` records it for tests).
 * Here the worker advances one step per status read of the group (`GET /episodes`), as a real queue advances
 * whatever the client polls.
 */
export interface GraphitiStandIn extends ZepStandIn {
  /** Set when the worker hit an unknown uuid and stopped (the real server logs nothing a client can see). */
  workerDied: boolean;
  /** Jobs still queued. */
  queued(): number;
}

interface GraphitiJob {
  group: string;
  uuid: string | null;
  name: string;
  content: string;
  roleType: string;
  at: string;
  sourceDescription: string;
  remaining: number;
}

export async function startGraphitiStandIn(processingPolls = 1): Promise<GraphitiStandIn> {
  const episodes: StoredEpisode[] = [];
  const queue: GraphitiJob[] = [];
  const self = { neverFinish: false, workerDied: false };
  // dto/common.py Message: `role` has no default, so the key must be present (null allowed).
  const Msg = z
    .object({
      content: z.string(),
      uuid: z.string().nullable().optional(),
      name: z.string().optional(),
      role_type: z.enum(['user', 'assistant', 'system']),
      role: z.string().nullable(),
      timestamp: z.string().datetime({ offset: true }).optional(),
      source_description: z.string().optional(),
    })
    .strict();
  /** One step of the worker: the head job advances; a finished job becomes an episode; an unknown uuid kills it. */
  const work = () => {
    if (self.neverFinish || self.workerDied) return;
    for (let steps = queue.length; steps > 0 && queue.length > 0; steps--) {
      const job = queue[0]!;
      if (job.uuid !== null) {
        const existing = episodes.find((e) => e.uuid === job.uuid);
        if (!existing) {
          self.workerDied = true; // NodeNotFoundError escapes `AsyncWorker.worker`: the task ends, the queue stays.
          return;
        }
        queue.shift();
        existing.remaining = 0; // reprocessed with its stored content (the request's content is not used)
        continue;
      }
      if (job.remaining > 1) {
        job.remaining--;
        return;
      }
      queue.shift();
      episodes.push({
        uuid: randomUUID(),
        owner: job.group,
        content: job.content,
        role: job.roleType,
        name: job.name,
        at: job.at,
        metadata: {},
        sourceDescription: job.sourceDescription,
        remaining: 0,
      });
    }
  };
  const server = await startLoopback({
    routes: [
      { method: 'GET', path: /^\/healthcheck$/, handle: () => ({ body: { status: 'healthy' } }) },
      {
        method: 'POST',
        path: /^\/messages$/,
        body: z.object({ group_id: z.string().regex(/^[A-Za-z0-9_-]+$/), messages: z.array(Msg) }).strict(),
        handle(_p, body) {
          const b = body as { group_id: string; messages: z.infer<typeof Msg>[] };
          for (const m of b.messages) {
            queue.push({
              group: b.group_id,
              uuid: m.uuid ?? null,
              name: m.name ?? '',
              // routers/ingest.py: episode_body=f'{m.role or ""}({m.role_type}): {m.content}'
              content: `${m.role ?? ''}(${m.role_type}): ${m.content}`,
              roleType: m.role_type,
              at: m.timestamp ?? new Date().toISOString(),
              sourceDescription: m.source_description ?? '',
              remaining: processingPolls,
            });
          }
          return { status: 202, body: { message: 'Messages added to processing queue', success: true } };
        },
      },
      {
        method: 'GET',
        path: /^\/episodes\/([^/]+)$/,
        query: z.object({ last_n: z.string().regex(/^\d+$/) }).strict(),
        handle([group], _b, q) {
          work();
          // retrieve_episodes: valid_at <= now, newest first (ORDER BY valid_at DESC LIMIT last_n).
          const now = new Date().toISOString();
          const mine = episodes
            .filter((e) => e.owner === group && e.at <= now)
            .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
          return {
            body: mine.slice(0, Number(q.last_n)).map((e) => ({
              uuid: e.uuid,
              name: e.name ?? '',
              group_id: group,
              labels: [],
              source: 'message',
              content: e.content,
              source_description: e.sourceDescription ?? '',
              valid_at: e.at,
              created_at: e.at,
              entity_edges: [],
            })),
          };
        },
      },
      {
        method: 'POST',
        path: /^\/search$/,
        body: z
          .object({
            group_ids: z.array(z.string()).nullable().optional(),
            query: z.string(),
            max_facts: z.number().int().optional(),
          })
          .strict(),
        handle(_p, body) {
          const b = body as { group_ids: string[]; query: string; max_facts?: number };
          const hits = (b.group_ids ?? []).flatMap((g) => ranked(episodes, g, b.query)).slice(0, b.max_facts ?? 10);
          // FactResult (dto/retrieve.py) carries no score; a fact does not repeat its episode's name.
          const facts = hits.map(({ e }) => ({
            ...edge({ ...e, name: null }, 0, 'episodes'),
            score: undefined,
            invalid_at: null,
            expired_at: null,
          }));
          return { body: { facts: JSON.parse(JSON.stringify(facts)) as unknown } };
        },
      },
      {
        method: 'DELETE',
        path: /^\/group\/([^/]+)$/,
        handle([group]) {
          for (let i = episodes.length - 1; i >= 0; i--) if (episodes[i]!.owner === group) episodes.splice(i, 1);
          for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.group === group) queue.splice(i, 1);
          return { body: { message: 'Group deleted', success: true } };
        },
      },
    ],
  });
  const standIn = Object.assign(server, {
    episodes,
    owners: () => [...new Set([...episodes.map((e) => e.owner), ...queue.map((j) => j.group)])],
    queued: () => queue.length,
  });
  for (const key of ['neverFinish', 'workerDied'] as const)
    Object.defineProperty(standIn, key, {
      get: () => self[key],
      set: (v: boolean) => void (self[key] = v),
      enumerable: true,
    });
  return standIn as GraphitiStandIn;
}
