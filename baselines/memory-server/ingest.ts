/**
 * Resumable ingestion of one haystack into one namespace. Messages go in time order (sessions by date, turns in
 * order), in batches of at most `api.maxBatch` messages that never span two sessions. Durable markers in the results
 * file (`ctx.checkpoints`) make a killed run resume without adding any message twice:
 *
 *   `<ns>:state`  server containers (user/thread UUIDs) — written right after they are created;
 *   `<ns>:b<i>`   the receipt of batch i (handles to poll, server ids → unit ids) — written once the server accepted it;
 *   `<ns>:done`   processing finished.
 *
 * A kill between the server accepting a batch and its marker being written would re-send it; to close that window, a
 * resumed ingestion first asks the server which batch ids it already holds (`landedBatches`, read from the metadata
 * every message carries) and skips them. Processing is then polled until done or until `timeoutMs`, which throws (an
 * error row for the question; the next question resumes the wait) rather than hanging.
 */
import type { Checkpoints } from '../../src/core/interfaces.ts';
import type { MemoryUnit } from '../../src/core/types.ts';
import { reportWorkProgress } from '../../src/core/progress-events.ts';
import { sleep } from '../../src/llm/retry.ts';
import type { Batch, BatchReceipt, Call, MemoryServerApi, NamespaceState, ServerMessage } from './api.ts';

export interface IngestOptions {
  pollMs: number;
  timeoutMs: number;
}

export interface Ingested {
  state: NamespaceState;
  /** Server id → unit id over every batch. */
  ids: Map<string, string>;
  messages: number;
}

/** Units as messages, oldest first (stable for equal times: sessions keep haystack order). */
export function toMessages(units: readonly MemoryUnit[]): ServerMessage[] {
  return units
    .map((u, i) => ({ u, i }))
    .sort((a, b) => (a.u.at < b.u.at ? -1 : a.u.at > b.u.at ? 1 : a.i - b.i))
    .map(({ u }) => {
      const m: ServerMessage = {
        unitId: u.id,
        sessionId: u.sessionId,
        // A round or session unit holds both roles; it is sent as the user's message (its text has both sides).
        role: u.role === 'assistant' ? 'assistant' : 'user',
        text: u.text,
        at: u.at,
      };
      if (u.speaker !== undefined) m.speaker = u.speaker;
      return m;
    });
}

export function toBatches(messages: readonly ServerMessage[], maxBatch: number): Batch[] {
  const batches: Batch[] = [];
  let current: ServerMessage[] = [];
  const flush = () => {
    if (current.length === 0) return;
    batches.push({ id: `b${batches.length}`, index: batches.length, messages: current });
    current = [];
  };
  for (const m of messages) {
    if (current.length >= maxBatch || (current.length > 0 && current[0]!.sessionId !== m.sessionId)) flush();
    current.push(m);
  }
  flush();
  return batches;
}

/** In-memory stand-in when the runner gives no results file (unit tests, `explain`). */
export function memoryCheckpoints(): Checkpoints {
  const m = new Map<string, string>();
  return { has: async (k) => m.has(k), get: async (k) => m.get(k), put: async (k, v) => void m.set(k, v) };
}

export async function ingest(
  api: MemoryServerApi,
  ns: string,
  units: readonly MemoryUnit[],
  cp: Checkpoints,
  c: Call,
  opts: IngestOptions,
): Promise<Ingested> {
  const batches = toBatches(toMessages(units), api.maxBatch);
  const total = batches.reduce((n, b) => n + b.messages.length, 0);
  const label = `ingest ${api.label}`;

  let state: NamespaceState;
  const savedState = await cp.get(`${ns}:state`);
  if (savedState !== undefined) state = JSON.parse(savedState) as NamespaceState;
  else {
    state = await api.prepare(ns, c);
    await cp.put(`${ns}:state`, JSON.stringify(state));
  }

  const receipts: BatchReceipt[] = [];
  const missing: Batch[] = [];
  for (const b of batches) {
    const saved = await cp.get(`${ns}:${b.id}`);
    if (saved !== undefined) receipts[b.index] = JSON.parse(saved) as BatchReceipt;
    else missing.push(b);
  }
  if (!(await cp.has(`${ns}:done`)) && missing.length > 0) {
    // Something was sent before (state or a batch marker exists): ask the server what it already holds.
    const resumed = savedState !== undefined || missing.length < batches.length;
    const landed = resumed ? await api.landedBatches(ns, state, c) : new Map<string, Record<string, string>>();
    let sent = total - missing.reduce((n, b) => n + b.messages.length, 0);
    for (const b of missing) {
      const onServer = landed.get(b.id);
      if (onServer) {
        // On the server but unmarked (killed between accept and marker): its handles are lost; counting the
        // namespace's messages (`processed` gets the expected total) still tells when processing is done.
        receipts[b.index] = { handles: [], ids: onServer };
      } else {
        receipts[b.index] = await api.addBatch(ns, state, b, c);
      }
      await cp.put(`${ns}:${b.id}`, JSON.stringify(receipts[b.index]));
      sent += b.messages.length;
      reportWorkProgress({ label, done: sent, total });
    }
  }
  if (!(await cp.has(`${ns}:done`))) {
    const started = Date.now();
    for (;;) {
      const p = await api.processed(ns, state, receipts, total, c);
      if (p.done) break;
      if (p.failed) throw new Error(`${api.label}: processing of namespace ${ns} failed: ${p.failed}`);
      if (Date.now() - started > opts.timeoutMs) {
        throw new Error(`${api.label}: processing of namespace ${ns} not finished after ${Math.round(opts.timeoutMs / 1000)} s (ingestTimeoutMs); the next question resumes waiting`);
      }
      await sleep(opts.pollMs);
    }
    await cp.put(`${ns}:done`, new Date().toISOString());
  }
  reportWorkProgress({ label, done: total, total });
  const ids = new Map<string, string>();
  for (const r of receipts) for (const [k, v] of Object.entries(r?.ids ?? {})) ids.set(k, v);
  return { state, ids, messages: total };
}
