/**
 * The http-memory protocol (docs/http-memory.openapi.yaml) as a memory-server API, so any system that speaks it gets
 * the machinery Mem0 and Zep have (baselines/memory-server/): ingestion once per haystack and run, resumable without
 * storing anything twice, processing waited for with a timeout, the search cache (a rerun makes no request), every
 * request recorded, dated memories for the reader, cleanup.
 *
 * - health: `GET /health` → `{ protocol: "http-memory/1", sources }`; a server without source ids must be configured
 *   `output: text` (and one with them may be).
 * - prepare: `PUT /namespaces/{ns}` (idempotent). add: `POST /namespaces/{ns}/sessions` `{ batch_id, session_id,
 *   messages: [{ unit_id, role, speaker, text, time }] }`. The protocol makes ingestion idempotent per `batch_id`, so
 *   a batch sent again after a lost reply or a kill is stored once by the server itself: nothing to list.
 * - wait: `GET /namespaces/{ns}` until `ready`. search: `POST /namespaces/{ns}/search` `{ query, k, question_date }` →
 *   `{ items: [{ text, score?, unit_ids?, time? }] }`; `unit_ids` are our unit ids (no mapping), `time` the memory's
 *   date; a missing score is 1/rank. delete: `DELETE /namespaces/{ns}` (404 = already gone).
 */
import { z } from 'zod';
import { SetupError } from '../../src/core/errors.ts';
import {
  type Call,
  type MemoryServerApi,
  parseReply,
  send,
  sendAdd,
  type ServerHit,
  toUtcIso,
} from '../memory-server/api.ts';

export const PROTOCOL = 'http-memory/1';

const HealthSchema = z.looseObject({
  protocol: z.string(),
  sources: z.boolean(),
  name: z.string().optional(),
  /** The image the server runs, by digest (optional; recorded per run and in a results bundle). */
  image: z
    .string()
    .regex(/@sha256:[0-9a-f]{64}$/u, 'name@sha256:<64 hex digits>')
    .optional(),
});
const StatusSchema = z.looseObject({
  namespace: z.string(),
  messages: z.number().int().nonnegative(),
  ready: z.boolean(),
});
const IngestSchema = z.looseObject({
  batch_id: z.string(),
  stored: z.number().int().nonnegative(),
  duplicate: z.boolean(),
});
const ItemSchema = z.looseObject({
  text: z.string(),
  score: z.number().nullish(),
  unit_ids: z.array(z.string()).nullish(),
  time: z.string().nullish(),
});
const SearchSchema = z.looseObject({ items: z.array(ItemSchema) });

export interface HttpMemoryApiOptions {
  output: 'units' | 'text';
  /** The system's version as the user names it: part of the cache keys, so a changed system is not served old results. */
  version: string;
}

export function createHttpMemoryApi(o: HttpMemoryApiOptions): MemoryServerApi {
  const label = 'http-memory';
  const ns = (name: string) => `/namespaces/${encodeURIComponent(name)}`;
  const status = async (name: string, c: Call) =>
    parseReply(
      StatusSchema,
      (await send(c, { method: 'GET', path: ns(name) })).body,
      label,
      'GET /namespaces/{namespace}',
    );
  return {
    label,
    output: o.output,
    // Sessions are sent whole where they fit (LongMemEval and LoCoMo sessions do): one request per session.
    maxBatch: 500,
    visibility: 'immediate',
    usesQuestionDate: true,
    sourcesAreUnitIds: true,
    ingestSettings: { protocol: PROTOCOL, version: o.version },
    searchSettings: { protocol: PROTOCOL, version: o.version },
    async health(c) {
      const h = parseReply(
        HealthSchema,
        (await send(c, { method: 'GET', path: '/health', maxRetries: 1 })).body,
        label,
        'GET /health',
      );
      if (h.protocol !== PROTOCOL)
        throw new SetupError(
          `${label}: the server speaks "${h.protocol}", not ${PROTOCOL} (docs/http-memory.openapi.yaml)`,
        );
      if (o.output === 'units' && !h.sources)
        throw new SetupError(
          `${label}: the server's search gives no source ids (/health sources: false): set output: text`,
        );
      return h.image === undefined ? undefined : { image: h.image };
    },
    async prepare(name, c) {
      await send(c, { method: 'PUT', path: ns(name) });
      return {};
    },
    async addBatch(name, _state, batch, c) {
      const res = await sendAdd(c, {
        method: 'POST',
        path: `${ns(name)}/sessions`,
        body: {
          batch_id: batch.id,
          session_id: batch.messages[0]!.sessionId,
          messages: batch.messages.map((m) => ({
            unit_id: m.unitId,
            role: m.role,
            speaker: m.speaker ?? null,
            text: m.text,
            time: m.at,
          })),
        },
      });
      parseReply(IngestSchema, res.body, label, 'POST /namespaces/{namespace}/sessions');
      return { handles: [], ids: {} };
    },
    // Ingestion is idempotent per batch_id: resending a batch the server holds stores nothing.
    landedBatches: async () => new Map(),
    async processed(name, _state, _receipts, _expected, c) {
      return (await status(name, c)).ready ? { done: true } : { done: false };
    },
    count: async (name, _state, c) => (await status(name, c)).messages,
    async search(name, _state, query, k, c) {
      const res = await send(c, {
        method: 'POST',
        path: `${ns(name)}/search`,
        body: { query: query.text, k, question_date: toUtcIso(query.askedAt) ?? null },
      });
      // Every item returned: the shared method cuts to k and records the cut (the fairness contract).
      return parseReply(SearchSchema, res.body, label, 'POST /namespaces/{namespace}/search').items.map(
        (it, i): ServerHit => {
          const at = toUtcIso(it.time);
          return {
            text: it.text,
            score: it.score ?? 1 / (i + 1),
            ...(at ? { at } : {}),
            sources: o.output === 'units' ? (it.unit_ids ?? []) : [],
          };
        },
      );
    },
    async remove(name, _state, c) {
      await send(c, { method: 'DELETE', path: ns(name), accept: [404] });
    },
  };
}
