/**
 * Backoff arithmetic shared by every client that retries (the openai SDK client, plain JSON-over-HTTP clients of
 * memory servers): exponential with jitter, capped, a server's `Retry-After` winning. No SDK import, so plain-HTTP
 * clients load without the openai SDK; which errors are retryable is decided in retry.ts.
 */

export const MAX_BACKOFF_MS = 30_000;

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
export function backoffDelayMs(
  attempt: number,
  baseMs: number,
  retryAfter: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, MAX_BACKOFF_MS);
  const exp = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return Math.round(exp * (0.5 + 0.5 * random()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
