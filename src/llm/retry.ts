/**
 * Which failures are worth retrying and how long to wait. Retried: HTTP 408/409/429 and 5xx, timeouts, dropped
 * connections, bodies that are not valid JSON and replies that cannot be used. Not retried: other 4xx (a bad
 * request or a bad key will not get better). Backoff is exponential with jitter, capped, and a server's
 * `Retry-After` header wins when it gives one.
 */
import { APIConnectionError, APIError } from 'openai';
import { backoffDelayMs, retryAfterFromHeaders } from './backoff.ts';
import { MalformedReplyError } from './errors.ts';
import { InvalidReplyTextError, ReplyTooLargeError } from '../core/reply-limit.ts';

// The SDK-free helpers live in backoff.ts (plain-HTTP clients use them without loading the openai SDK).
export { backoffDelayMs, MAX_BACKOFF_MS, retryAfterFromHeaders, sleep } from './backoff.ts';

export function isRetryable(err: unknown): boolean {
  // A reply over the size cap reaches the SDK as a failed fetch: the same request would get the same reply.
  if (err instanceof APIConnectionError) return !(err.cause instanceof ReplyTooLargeError); // includes APIConnectionTimeoutError
  if (err instanceof ReplyTooLargeError) return false;
  if (err instanceof InvalidReplyTextError) return true;
  if (err instanceof APIError) {
    const s = err.status;
    return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
  }
  // The SDK parses JSON bodies itself; a truncated or garbled body surfaces as a SyntaxError.
  if (err instanceof SyntaxError) return true;
  return err instanceof MalformedReplyError;
}

export function httpStatus(err: unknown): number | undefined {
  return err instanceof APIError ? err.status : undefined;
}

/** Delay before retry number `attempt` (0-based). */
export function backoffMs(attempt: number, baseMs: number, err: unknown, random: () => number = Math.random): number {
  return backoffDelayMs(attempt, baseMs, retryAfterMs(err), random);
}

function retryAfterMs(err: unknown): number | undefined {
  if (!(err instanceof APIError) || !err.headers) return undefined;
  return retryAfterFromHeaders(err.headers);
}
