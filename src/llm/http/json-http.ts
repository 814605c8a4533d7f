/**
 * One JSON-over-HTTP client for the memory servers (Mem0, Zep, Graphiti), built on the LLM layer's policy: every
 * attempt runs inside the shared scheduler (concurrency + requests per minute, src/llm/scheduler.ts), failures are
 * retried as the LLM client retries them (408/429/5xx, timeouts, dropped connections, 2xx bodies that are not JSON;
 * a server's `Retry-After` wins over the exponential backoff, src/llm/retry.ts), and each request — not each attempt —
 * becomes one `CallRecord` (stage `ingest` / `search`, model = the endpoint's label, latency, error) in the caller's
 * `calls`, so `llm_calls`, the cost table and per-stage latency include memory-server traffic.
 *
 * The API key is held in memory only and sent in the header the API documents; every error message passes through
 * `redact`, so a server echoing the header cannot put the key into a results row or a log.
 */
import { assertNoLoneSurrogate } from '../../core/utf8.ts';
import { recordCall, type CallRecord } from '../../core/calls.ts';
import { describeNetworkError, errorMessage, oneLine } from '../../core/errors.ts';
import { splitUrlCredentials } from '../../core/http-url.ts';
import {
  DEFAULT_MAX_REPLY_BYTES,
  InvalidReplyTextError,
  ReplyTooLargeError,
  readBodyCapped,
  replyText,
} from '../../core/reply-limit.ts';
import type { RequestPolicy } from '../../core/llm.ts';
import { redact } from '../errors.ts';
import { backoffDelayMs, retryAfterFromHeaders, sleep } from '../backoff.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpEndpoint {
  /** `mem0:oss`, `zep:v4`…: the `model` of every CallRecord and the subject of every error message. */
  label: string;
  /** Base URL without a trailing slash; request paths are appended. */
  baseUrl: string;
  /** `{ header: 'Authorization', value: 'Token <key>' }`; `secret` is the bare key, for redaction. */
  auth?: { header: string; value: string; secret: string };
}

export interface JsonRequest {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Statuses besides 2xx that are answers, not errors (e.g. 404 when deleting what is already gone). */
  accept?: readonly number[];
  /** Overrides the policy's retries (a health check should fail fast). */
  maxRetries?: number;
}

export interface JsonResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/** A request that stayed broken. `status` is the last HTTP status (absent for network errors and timeouts). */
export class HttpCallError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
    /** The server's `Retry-After` on the last attempt, for a caller that retries on its own (memory-server adds). */
    readonly retryAfterMs?: number | undefined,
  ) {
    super(message);
    this.name = 'HttpCallError';
  }
}

export interface HttpStats {
  /** HTTP attempts sent, retries included. */
  requests: number;
}

export class JsonHttpClient {
  readonly stats: HttpStats = { requests: 0 };

  constructor(
    readonly endpoint: HttpEndpoint,
    private readonly policy: Pick<
      RequestPolicy,
      'schedule' | 'timeoutMs' | 'maxRetries' | 'retryBaseMs' | 'maxReplyBytes'
    >,
  ) {
    this.base = splitUrlCredentials(endpoint.baseUrl);
  }

  /** The base URL without credentials, and the Basic header they become (fetch refuses a URL holding them). */
  private readonly base: { url: string; authorization?: string };

  url(path: string, query?: JsonRequest['query']): string {
    const u = new URL(this.base.url + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** Sends one request (with retries) and records it in `meta.calls`. */
  async request(req: JsonRequest, meta: { stage: string; calls: CallRecord[] }): Promise<JsonResponse> {
    const started = performance.now();
    const record = async (error?: string): Promise<void> => {
      const call: CallRecord = {
        stage: meta.stage,
        model: this.endpoint.label,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: performance.now() - started,
        cached: false,
        costUsd: 0,
      };
      if (error !== undefined) call.error = error;
      await recordCall(meta.calls, call);
    };
    try {
      const res = await this.withRetries(req);
      await record();
      return res;
    } catch (err) {
      const message = this.redact(errorMessage(err));
      await record(message);
      if (err instanceof HttpCallError) throw new HttpCallError(message, err.status, err.retryable);
      throw new HttpCallError(message, undefined, false);
    }
  }

  redact(text: string): string {
    return redact(text, this.endpoint.auth?.secret);
  }

  private async withRetries(req: JsonRequest): Promise<JsonResponse> {
    const maxRetries = req.maxRetries ?? this.policy.maxRetries;
    const what = `${this.endpoint.label} ${req.method} ${this.url(req.path)}`;
    for (let attempt = 0; ; attempt++) {
      let retryAfter: number | undefined;
      let failure: HttpCallError;
      try {
        return await this.policy.schedule(() => this.attempt(req, what));
      } catch (err) {
        failure =
          err instanceof HttpCallError
            ? err
            : new HttpCallError(`${what}: ${describeNetworkError(err)}`, undefined, true);
        if (err instanceof RetryableStatus) retryAfter = err.retryAfterMs;
      }
      if (!failure.retryable || attempt >= maxRetries) {
        if (!failure.retryable) throw failure;
        throw new HttpCallError(
          `${failure.message} (still failing after ${attempt + 1} attempt(s))`,
          failure.status,
          true,
          retryAfter,
        );
      }
      await sleep(backoffDelayMs(attempt, this.policy.retryBaseMs, retryAfter));
    }
  }

  private async attempt(req: JsonRequest, what: string): Promise<JsonResponse> {
    this.stats.requests++;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (this.endpoint.auth) headers[this.endpoint.auth.header] = this.endpoint.auth.value;
    if (this.base.authorization !== undefined) {
      // The URL's own credentials win over a configured key header of the same name (as for the LLM roles).
      for (const k of Object.keys(headers)) if (k.toLowerCase() === 'authorization') delete headers[k];
      headers.authorization = this.base.authorization;
    }
    const init: RequestInit = { method: req.method, headers, signal: AbortSignal.timeout(this.policy.timeoutMs) };
    if (req.body !== undefined) init.body = JSON.stringify(req.body);
    const res = await fetch(this.url(req.path, req.query), init);
    let text: string;
    try {
      // Capped while it streams in, and strict UTF-8 (src/core/reply-limit.ts).
      text = replyText(
        await readBodyCapped(res, this.policy.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES, 'llm.maxReplyBytes'),
      );
    } catch (err) {
      if (err instanceof ReplyTooLargeError) throw new HttpCallError(`${what}: ${err.message}`, res.status, false);
      if (err instanceof InvalidReplyTextError)
        throw new HttpCallError(`${what}: HTTP ${res.status}: ${err.message}`, res.status, true);
      throw err;
    }
    const ok = (res.status >= 200 && res.status < 300) || (req.accept ?? []).includes(res.status);
    if (!ok) {
      const detail = oneLine(text, 300);
      const message = `${what}: HTTP ${res.status}${detail ? ` ${detail}` : ''}`;
      const s = res.status;
      if (s === 408 || s === 409 || s === 429 || s >= 500)
        throw new RetryableStatus(message, s, retryAfterFromHeaders(res.headers));
      throw new HttpCallError(message, s, false);
    }
    if (text.trim() === '') return { status: res.status, body: undefined, headers: res.headers };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // A truncated or garbled body is worth another try, as for the LLM client.
      throw new HttpCallError(`${what}: HTTP ${res.status} with a body that is not JSON`, res.status, true);
    }
    try {
      // A `\ud800` escape is no character: refused, never stored as U+FFFD (src/core/utf8.ts).
      assertNoLoneSurrogate(body);
    } catch (err) {
      throw new HttpCallError(`${what}: HTTP ${res.status}: ${errorMessage(err)}`, res.status, false);
    }
    return { status: res.status, body, headers: res.headers };
  }
}

class RetryableStatus extends HttpCallError {
  constructor(message: string, status: number, retryAfterMs: number | undefined) {
    super(message, status, true, retryAfterMs);
  }
}
