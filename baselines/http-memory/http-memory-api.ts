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

const LABEL = 'http-memory';

/** `/health`: the protocol this harness speaks, and source ids when the method returns units; the server's image. */
async function checkHealth(c: Call, output: HttpMemoryApiOptions['output']): Promise<{ image: string } | undefined> {
  const h = parseReply(
    HealthSchema,
    (await send(c, { method: 'GET', path: '/health', maxRetries: 1 })).body,
    LABEL,
    'GET /health',
  );
  if (h.protocol !== PROTOCOL)
    throw new SetupError(
      `${LABEL}: the server speaks "${h.protocol}", not ${PROTOCOL} (docs/http-memory.openapi.yaml)`,
    );
  if (output === 'units' && !h.sources)
    throw new SetupError(
      `${LABEL}: the server's search gives no source ids (/health sources: false): set output: text`,
    );
  return h.image === undefined ? undefined : { image: h.image };
}

/** A search item as a hit: its score, else 1 / rank; its unit ids as sources when the method returns units. */
function serverHit(it: z.infer<typeof ItemSchema>, i: number, output: HttpMemoryApiOptions['output']): ServerHit {
  const at = toUtcIso(it.time);
  return {
    text: it.text,
    score: it.score ?? 1 / (i + 1),
    ...(at ? { at } : {}),
    sources: output === 'units' ? (it.unit_ids ?? []) : [],
  };
}

export function createHttpMemoryApi(o: HttpMemoryApiOptions): MemoryServerApi {
  const label = LABEL;
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
    health: (c) => checkHealth(c, o.output),
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
    async processed(name, _state, _receipts, expected, c) {
      const s = await status(name, c);
      if (!s.ready) return { done: false };
      // Its own status contradicting its ingest replies: nothing would be searched, so say so (an error row).
      if (expected > 0 && s.messages === 0)
        return {
          done: false,
          failed: `the server acknowledged ${expected} message(s) but its status says the namespace holds 0`,
        };
      return { done: true };
    },
    count: async (name, _state, c) => (await status(name, c)).messages,
    async search(name, _state, query, k, c) {
      const res = await send(c, {
        method: 'POST',
        path: `${ns(name)}/search`,
        body: { query: query.text, k, question_date: toUtcIso(query.askedAt) ?? null },
      });
      // Every item returned: the shared method cuts to k and records the cut (the fairness contract).
      return parseReply(SearchSchema, res.body, label, 'POST /namespaces/{namespace}/search').items.map((it, i) =>
        serverHit(it, i, o.output),
      );
    },
    async remove(name, _state, c) {
      await send(c, { method: 'DELETE', path: ns(name), accept: [404] });
    },
  };
}
