/**
 * Which failures are worth retrying and how long to wait. Retried: HTTP 408/409/429 and 5xx, timeouts, dropped
 * connections, bodies that are not valid JSON and replies that cannot be used. Not retried: other 4xx (a bad
 * request or a bad key will not get better). Backoff is exponential with jitter, capped, and a server's
 * `Retry-After` header wins when it gives one.
 */
import { APIConnectionError, APIError } from 'openai';
import { MalformedReplyError } from './errors.ts';

export const MAX_BACKOFF_MS = 30_000;

export function isRetryable(err: unknown): boolean {
  if (err instanceof APIConnectionError) return true; // includes APIConnectionTimeoutError
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

/** A server's `Retry-After-Ms` / `Retry-After` (seconds or an HTTP date) in ms, if it sent one. */
export function retryAfterFromHeaders(headers: Pick<Headers, 'get'>): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms))) return Number(ms);
  const s = headers.get('retry-after');
  if (s === null || s.trim() === '') return undefined;
  if (Number.isFinite(Number(s))) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Exponential backoff with jitter, capped; `retryAfter` (a server's hint, ms) wins when given. */
export function backoffDelayMs(attempt: number, baseMs: number, retryAfter: number | undefined, random: () => number = Math.random): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, MAX_BACKOFF_MS);
  const exp = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return Math.round(exp * (0.5 + 0.5 * random()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
