/**
 * What one memory-server API (Mem0 OSS, Mem0 Platform v3, Zep v3, Zep v4, Graphiti) must provide so the shared
 * method (memory-server-method.ts) can ingest a haystack, wait for processing, search and clean up. Each adapter
 * speaks its own documented wire format through the shared JSON HTTP client (src/llm/http); everything else —
 * batching, resumable ingestion markers, polling with a timeout, the search cache, rendering — is shared.
 */
import type { z } from 'zod';
import type { CallRecord } from '../../src/core/calls.ts';
import type { JsonHttpClient, JsonRequest, JsonResponse } from '../../src/llm/http/index.ts';

/** One message sent to a server: a memory unit (a turn at `granularity: turn`) with its time and speaker. */
export interface ServerMessage {
  unitId: string;
  sessionId: string;
  role: 'user' | 'assistant';
  /** Speaker name where the dataset has one (LoCoMo). */
  speaker?: string;
  text: string;
  /** ISO 8601 UTC time of the message (its session's time). */
  at: string;
  /** Set when a message longer than the server's cap was split: this part's index (0-based) and the part count. */
  part?: { index: number; of: number };
}

/** What a search sends: the question and the time it is asked at (ISO 8601). */
export interface SearchQuery {
  text: string;
  askedAt: string;
}

export interface Batch {
  /** `b<index>`: unique within a namespace, sent along where the API keeps metadata, so a resumed run can see it landed. */
  id: string;
  index: number;
  messages: ServerMessage[];
}

/** What the server said when it accepted a batch: handles to poll and server ids mapped to our unit ids. */
export interface BatchReceipt {
  /** Event / task ids to poll until processing is done (empty when the API processes synchronously). */
  handles: string[];
  /** Server-side id (episode / message UUID) → our unit id, so results with provenance map back to units. */
  ids: Record<string, string>;
}

/** Server-side containers of one namespace (user, thread, graph UUIDs) as JSON-able strings. */
export type NamespaceState = Record<string, string>;

/** A retrieved memory: its text, score, event time and the server ids of its sources (episode UUIDs). */
export interface ServerHit {
  text: string;
  score: number;
  /** ISO 8601 UTC event time (normalised), when the API gives one. */
  at?: string;
  /** Server ids of the messages/episodes it came from (empty when the API gives no provenance). */
  sources: string[];
}

export type Processing = { done: true } | { done: false; failed?: string };

/** Where an adapter's requests go and how they are recorded (stage `ingest`, `search` or `cleanup`). */
export interface Call {
  http: JsonHttpClient;
  calls: CallRecord[];
  stage: string;
}

/** The parts of a reply an adapter reads. */
export type JsonResponseLike = Pick<JsonResponse, 'status' | 'body'>;

/** Sends one request of an adapter, recorded under the call's stage. */
export function send(c: Call, req: JsonRequest): Promise<JsonResponse> {
  return c.http.request(req, { stage: c.stage, calls: c.calls });
}

/**
 * Sends a non-idempotent add once: no retry inside the client. A failed add may still have been stored (a 500 after
 * the write, a dropped connection, a lost reply), so whether to send it again is decided by ingestion after asking
 * the server what it holds (ingest.ts `addChecked`).
 */
export function sendAdd(c: Call, req: JsonRequest): Promise<JsonResponse> {
  return send(c, { ...req, maxRetries: 0 });
}

/** What a server reports about itself in its health reply. */
export interface ServerInfo {
  /** `name@sha256:<digest>` of the image the server runs. */
  image?: string;
}

export interface MemoryServerApi {
  /** `mem0:oss`, `zep:graphiti`…: CallRecord model and message subject. */
  readonly label: string;
  /** `units` when hits carry provenance (Zep episodes); `text` otherwise (Mem0). */
  readonly output: 'units' | 'text';
  /** Messages per add request the API accepts. */
  readonly maxBatch: number;
  /**
   * When an accepted batch shows in `landedBatches`: `immediate` (stored before the add answers: Mem0 OSS, Zep thread
   * messages) or `after-processing` (queued: Graphiti episodes, Mem0 Platform events), so a check right after a
   * failed add cannot tell "not stored" from "not processed yet".
   */
  readonly visibility: 'immediate' | 'after-processing';
  /** Longest message content the server accepts, in characters (code points); absent = no cap. */
  readonly maxMessageChars?: number;
  /** Whether a search sends the question's date (then part of the search cache key). */
  readonly usesQuestionDate?: boolean;
  /** Hits cite our unit ids themselves (http-memory), not server ids to map. */
  readonly sourcesAreUnitIds?: boolean;
  /** The server's own name and version where a handshake gives them (MCP): kept with each search result. */
  serverInfo?(): string | undefined;
  /** Settings that change what ingestion stores (part of the search cache key). */
  readonly ingestSettings: Record<string, unknown>;
  /** Settings that change what a search returns (part of the search cache key). */
  readonly searchSettings: Record<string, unknown>;
  /**
   * One cheap authenticated request: throws when the server is unreachable or rejects the key. Resolves to what the
   * server says of itself, when it says anything: the container image it runs, by digest (recorded per run and in a
   * results bundle's manifest).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: the Mem0 and Zep APIs' health checks return nothing
  health(c: Call): Promise<ServerInfo | undefined | void>;
  /** Creates the namespace's containers; returns what later calls need (server-assigned UUIDs). */
  prepare(ns: string, c: Call): Promise<NamespaceState>;
  /** Sends one batch, once (through `sendAdd`): retries are ingestion's, after checking the server. */
  addBatch(ns: string, state: NamespaceState, batch: Batch, c: Call): Promise<BatchReceipt>;
  /**
   * Batches already stored on the server (read from the metadata each message carries), with their server ids →
   * unit ids, so a resume never re-sends them and still maps provenance. `candidates` are the batches in question
   * (an adapter that cannot list everything checks these one by one); the map may hold others too.
   */
  landedBatches(
    ns: string,
    state: NamespaceState,
    c: Call,
    candidates: readonly Batch[],
  ): Promise<Map<string, Record<string, string>>>;
  /**
   * Server ids → unit ids that exist only once processing is done (Graphiti assigns episode uuids in its queue):
   * read once, after processing, and kept with the namespace's markers.
   */
  resolveIds?(ns: string, state: NamespaceState, c: Call): Promise<Record<string, string>>;
  /** Whether the server has finished processing everything in `receipts` (messages expected in `expected`). */
  processed(
    ns: string,
    state: NamespaceState,
    receipts: readonly BatchReceipt[],
    expected: number,
    c: Call,
  ): Promise<Processing>;
  /** Messages (episodes) the server holds for the namespace; used by tests and the kill-resume check. */
  count(ns: string, state: NamespaceState, c: Call): Promise<number>;
  search(ns: string, state: NamespaceState, query: SearchQuery, k: number, c: Call): Promise<ServerHit[]>;
  /** Deletes the namespace and everything in it. */
  remove(ns: string, state: NamespaceState, c: Call): Promise<void>;
}

/** A time from an API as ISO 8601 UTC: offsets honoured (Mem0 writes some times in US/Pacific), naive = UTC. */
export function toUtcIso(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const hasZone = /([zZ]|[+-]\d\d:?\d\d)$/.test(value.trim());
  const d = new Date(hasZone ? value : `${value.trim()}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Parses a reply with a (loose) schema of its documented shape; a reply that does not fit names the API and request. */
export function parseReply<S extends z.ZodType>(schema: S, body: unknown, label: string, what: string): z.output<S> {
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(
      `${label}: unexpected reply to ${what}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`,
    );
  }
  return r.data;
}
