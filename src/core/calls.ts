/**
 * The per-call accounting record. Every LLM call, embedding request and memory-server request a method or the QA
 * layer makes is recorded as one of these, so `llm_calls`, the cost table and per-stage latency cover them all.
 * Stage names: `classify`, `strategy:<step>`, `index:<step>` (work done when memorising a haystack),
 * `query:<step>` (work done when answering), `ingest` / `search` (memory servers), `reader`, `judge`.
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
}
