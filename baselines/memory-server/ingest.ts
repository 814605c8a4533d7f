/**
 * Resumable ingestion of one haystack into one namespace. Messages go in time order (sessions by date, turns in
 * order), in batches of at most `api.maxBatch` messages that never span two sessions; messages over the server's
 * content cap are split or refused (split.ts) before any request. Durable markers in the results file
 * (`ctx.checkpoints`) make a killed run resume without adding any message twice:
 *
 *   `<ns>:state`        server containers (user/thread UUIDs) — written right after they are created;
 *   `<ns>:sending:b<i>` batch i is about to be sent: from here on the server may hold it;
 *   `<ns>:b<i>`         the receipt of batch i (handles to poll, server ids → unit ids) — once the server accepted it;
 *   `<ns>:ids`          server ids known only after processing (Graphiti episodes) → unit ids;
 *   `<ns>:done`         processing finished.
 *
 * An add is not idempotent on any of these servers, so it is never resent blindly. When one fails in a way that may
 * have stored it (a 5xx, a dropped connection or timeout, a 2xx whose body is lost), the server is asked what it
 * holds (`landedBatches`, read from the metadata every message carries) before the batch is sent again; the same
 * check runs for a batch a killed run may have sent (its `sending` marker without a receipt). A server that shows a
 * batch only once processed (`visibility: after-processing`) is watched for up to `timeoutMs` first. A 429 or a
 * refused connection stored nothing and is retried as is (after the server's Retry-After when it sent one).
 * Processing is then polled until done or until `timeoutMs`, which throws (an error row for the question; the next
 * question resumes the wait) rather than hanging.
 */
import { SetupError } from '../../src/core/errors.ts';
import type { Checkpoints } from '../../src/core/interfaces.ts';
import type { MemoryUnit } from '../../src/core/types.ts';
import { reportWorkProgress } from '../../src/core/progress-events.ts';
import { backoffDelayMs, sleep } from '../../src/llm/backoff.ts';
import { HttpCallError } from '../../src/llm/http/index.ts';
import type { Batch, BatchReceipt, Call, MemoryServerApi, NamespaceState, ServerMessage } from './api.ts';
import { fitMessages, type LongMessages } from './split.ts';

export interface IngestOptions {
  pollMs: number;
  timeoutMs: number;
  /** How often a failed add is tried again (after checking the server), and the backoff base. */
  retries: number;
  retryBaseMs: number;
  longMessages: LongMessages;
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

/** Whether a failed add may have been stored: anything but a refusal (4xx), a rate limit or a refused connection. */
export function mayHaveLanded(err: unknown): boolean {
  if (!(err instanceof HttpCallError) || !err.retryable) return false;
  if (err.status === 429) return false;
  return !(err.status === undefined && /ECONNREFUSED/.test(err.message));
}

/** Creates the namespace's containers and checkpoints their state; a refused namespace (4xx) is a setup error. */
async function prepare(api: MemoryServerApi, ns: string, cp: Checkpoints, c: Call): Promise<NamespaceState> {
  let state: NamespaceState;
  try {
    state = await api.prepare(ns, c);
  } catch (err) {
    // A refused user/thread/namespace (a bad id, a plan limit, a key without the right): every question would fail.
    if (
      err instanceof HttpCallError &&
      !err.retryable &&
      err.status !== undefined &&
      err.status >= 400 &&
      err.status < 500
    ) {
      throw new SetupError(`${api.label}: could not create namespace ${ns}: ${err.message}`);
    }
    throw err;
  }
  await cp.put(`${ns}:state`, JSON.stringify(state));
  return state;
}

/**
 * Waits until the server has processed every batch (or says processing failed; an error after `timeoutMs`, the
 * next question resumes waiting), then checkpoints the server's ids and marks the namespace done.
 */
async function awaitProcessed(
  api: MemoryServerApi,
  ns: string,
  state: NamespaceState,
  receipts: BatchReceipt[],
  total: number,
  c: Call,
  cp: Checkpoints,
  opts: IngestOptions,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    const p = await api.processed(ns, state, receipts, total, c);
    if (p.done) break;
    if (p.failed) throw new Error(`${api.label}: processing of namespace ${ns} failed: ${p.failed}`);
    if (Date.now() - started > opts.timeoutMs) {
      throw new Error(
        `${api.label}: processing of namespace ${ns} not finished after ${Math.round(opts.timeoutMs / 1000)} s (ingestTimeoutMs); the next question resumes waiting`,
      );
    }
    await sleep(opts.pollMs);
  }
  if (api.resolveIds) await cp.put(`${ns}:ids`, JSON.stringify(await api.resolveIds(ns, state, c)));
  await cp.put(`${ns}:done`, new Date().toISOString());
}

/** Server-side id → our unit id: from the batches' receipts, and the server's own mapping where it has one. */
async function serverIds(
  api: MemoryServerApi,
  ns: string,
  state: NamespaceState,
  receipts: readonly (BatchReceipt | undefined)[],
  cp: Checkpoints,
  c: Call,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const r of receipts) for (const [k, v] of Object.entries(r?.ids ?? {})) ids.set(k, v);
  if (api.resolveIds) {
    let saved = await cp.get(`${ns}:ids`);
    if (saved === undefined) {
      saved = JSON.stringify(await api.resolveIds(ns, state, c));
      await cp.put(`${ns}:ids`, saved);
    }
    for (const [k, v] of Object.entries(JSON.parse(saved) as Record<string, string>)) ids.set(k, v);
  }
  return ids;
}

export async function ingest(
  api: MemoryServerApi,
  ns: string,
  units: readonly MemoryUnit[],
  cp: Checkpoints,
  c: Call,
  opts: IngestOptions,
): Promise<Ingested> {
  const batches = toBatches(
    fitMessages(toMessages(units), api.maxMessageChars, opts.longMessages, api.label),
    api.maxBatch,
  );
  const total = batches.reduce((n, b) => n + b.messages.length, 0);
  const label = `ingest ${api.label}`;

  const savedState = await cp.get(`${ns}:state`);
  const state = savedState !== undefined ? (JSON.parse(savedState) as NamespaceState) : await prepare(api, ns, cp, c);

  /** The batch as the server holds it, looking for up to `waitMs` (a queued batch shows once processed). */
  const findLanded = async (b: Batch, waitMs: number): Promise<BatchReceipt | undefined> => {
    const until = Date.now() + waitMs;
    for (;;) {
      const ids = (await api.landedBatches(ns, state, c, [b])).get(b.id);
      if (ids) return { handles: [], ids };
      if (Date.now() >= until) return undefined;
      await sleep(opts.pollMs);
    }
  };
  const settleMs = api.visibility === 'after-processing' ? opts.timeoutMs : 0;

  /** Sends a batch; after a failure that may have stored it, sends it again only if the server does not hold it. */
  const addChecked = async (b: Batch): Promise<BatchReceipt> => {
    await cp.put(`${ns}:sending:${b.id}`, new Date().toISOString());
    for (let attempt = 0; ; attempt++) {
      try {
        return await api.addBatch(ns, state, b, c);
      } catch (err) {
        if (!(err instanceof HttpCallError) || !err.retryable || attempt >= opts.retries) throw err;
        await sleep(backoffDelayMs(attempt, opts.retryBaseMs, err.retryAfterMs)); // the server's Retry-After wins
        if (!mayHaveLanded(err)) continue;
        const found = await findLanded(b, settleMs);
        if (found) return found;
      }
    }
  };

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
    const landed = resumed ? await api.landedBatches(ns, state, c, missing) : new Map<string, Record<string, string>>();
    let sent = total - missing.reduce((n, b) => n + b.messages.length, 0);
    for (const b of missing) {
      const onServer = landed.get(b.id);
      let receipt: BatchReceipt | undefined;
      // On the server but unmarked (killed between accept and marker): its handles are lost; counting the
      // namespace's messages (`processed` gets the expected total) still tells when processing is done.
      if (onServer) receipt = { handles: [], ids: onServer };
      // Sent by a run that was killed before the reply: a queued batch may show only later.
      else if (settleMs > 0 && (await cp.has(`${ns}:sending:${b.id}`))) receipt = await findLanded(b, settleMs);
      receipts[b.index] = receipt ?? (await addChecked(b));
      await cp.put(`${ns}:${b.id}`, JSON.stringify(receipts[b.index]));
      sent += b.messages.length;
      reportWorkProgress({ label, done: sent, total });
    }
  }
  if (!(await cp.has(`${ns}:done`))) await awaitProcessed(api, ns, state, receipts, total, c, cp, opts);
  reportWorkProgress({ label, done: total, total });
  const ids = await serverIds(api, ns, state, receipts, cp, c);
  return { state, ids, messages: total };
}
