/**
 * The calls list of the work in progress, for clients that cannot be handed one: a shared embedder serves every
 * method and question, so the runner runs each method (and the index preparation) inside `withCallScope(calls, …)`
 * and the embedder records its paid requests through `recordInScope`, into that list and, through its paid-call
 * sink (calls.ts), durably. Node's AsyncLocalStorage carries the list across awaits; outside any scope (a tool, a
 * test) nothing is recorded. A text another method is already embedding is paid once, by the method that sent it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { recordCall, type CallRecord } from './calls.ts';

/** The scope: where calls go, and the price of a call (the experiment's price table; 0 when it has none). */
export interface CallScope {
  calls: CallRecord[];
  costUsd?: (model: string, promptTokens: number, completionTokens: number) => number;
}

const storage = new AsyncLocalStorage<CallScope>();

export function withCallScope<T>(scope: CallScope, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}

/** Records a call made by a shared client into the current scope's list (priced there); a no-op outside one. */
export async function recordInScope(record: Omit<CallRecord, 'costUsd'>): Promise<void> {
  const scope = storage.getStore();
  if (scope === undefined) return;
  const costUsd = scope.costUsd?.(record.model, record.promptTokens, record.completionTokens) ?? 0;
  await recordCall(scope.calls, { ...record, costUsd });
}
