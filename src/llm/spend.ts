/**
 * The two hooks through which a run controls what the LLM clients spend (src/llm/client.ts), implemented by the
 * runner: the Batch API queue (src/run/spend/batch-stage.ts) and the budget guard (src/run/spend/budget.ts). Declared here so the
 * client depends on the contract, not on the run layer.
 */
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { CallRecord } from '../core/calls.ts';
import type { LlmRole } from '../core/llm.ts';
import type { CacheKeyMaterial } from './cache.ts';

/** An uncached request handed to the batch queue instead of being sent. */
export interface DeferredRequest {
  /** Reply-cache key (also the line's `custom_id`). */
  key: string;
  material: CacheKeyMaterial;
  body: ChatCompletionCreateParamsNonStreaming;
  /** The caller asked for JSON: a reply without it is unusable (as for a synchronous call). */
  wantsJson: boolean;
  role: LlmRole;
  model: string;
  stage: string;
  /** The asking question's call list (its owner names the question and method the paid call is recorded for). */
  calls: CallRecord[];
}

export interface BatchQueue {
  /** Whether a request of this role and stage, not in the cache, goes to the queue (false: sent now). */
  wants(role: LlmRole, stage: string, key: string): boolean;
  defer(request: DeferredRequest): void;
}

export interface SpendGuard {
  /**
   * Reserves `usd` (a request's worst-case cost) before the request is sent; returns a ticket for `settle`. Throws
   * `PostponedError('budget')` when the reservation would take the run past its budget.
   */
  reserve(usd: number, what: string): number;
  /** Replaces a reservation with what the call did cost (0 when it failed: errors are not billed). */
  settle(ticket: number, actualUsd: number): void;
}
