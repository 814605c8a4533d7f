/**
 * The per-call accounting record. Every LLM call, embedding request and memory-server request a method or the QA
 * layer makes is recorded as one of these, so `llm_calls`, the cost table and per-stage latency cover them all.
 * Stage names: `classify`, `strategy:<step>`, `index:<step>` (work done when memorising a haystack),
 * `query:<step>` (work done when answering), `ingest` / `search` (memory servers), `reader`, `judge`, `embed` (a paid
 * request of the shared embedder, recorded through core/call-scope.ts).
 */
export interface CallRecord {
  stage: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  cached: boolean;
  costUsd: number;
  error?: string;
  /** Answered through the provider's Batch API (priced at the batch price). */
  batch?: boolean;
  /** Prompt tokens the provider served from its prompt cache (`usage.prompt_tokens_details.cached_tokens`). */
  cachedTokens?: number;
}

/**
 * Durable accounting of paid calls: the runner attaches a sink to a question's `calls` list, and every
 * client records through `recordCall`, which hands each paid call (not served from a cache) to the sink — the
 * results file, committed — before the caller gets its reply. A run killed mid-question thus keeps the calls it paid
 * for, though the question's other rows are lost and recomputed on resume (where those replies come from the cache).
 */
export type PaidCallSink = (record: CallRecord) => Promise<void>;

const SINK = Symbol('adaptmr.paidCallSink');

/** `calls` with `sink` attached (a hidden property: the list stays a plain array for every other use). */
export function withPaidCallSink(calls: CallRecord[], sink: PaidCallSink): CallRecord[] {
  Object.defineProperty(calls, SINK, { value: sink, enumerable: false });
  return calls;
}

/** Appends `record` to `calls`; a paid call (`cached: false`) goes to the list's sink first, when it has one. */
export async function recordCall(calls: CallRecord[], record: CallRecord): Promise<void> {
  const sink = (calls as unknown as Record<symbol, PaidCallSink | undefined>)[SINK];
  if (sink !== undefined && !record.cached) await sink(record);
  calls.push(record);
}

/** The question and method a call list belongs to (the runner attaches it; the Batch API queue records by it). */
export interface CallOwner {
  dataset: string;
  questionId: string;
  method: string;
}

const OWNER = Symbol('adaptmr.callOwner');

/** `calls` with its owner attached (a hidden property, as the sink). */
export function withCallOwner(calls: CallRecord[], owner: CallOwner): CallRecord[] {
  Object.defineProperty(calls, OWNER, { value: { ...owner }, enumerable: false });
  return calls;
}

export function callOwner(calls: CallRecord[]): CallOwner | undefined {
  return (calls as unknown as Record<symbol, CallOwner | undefined>)[OWNER];
}
