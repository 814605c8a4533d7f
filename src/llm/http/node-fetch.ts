/**
 * A `fetch` for the openai SDK (its `fetch` option) on node:http / node:https with one keep-alive connection pool per
 * LLM provider, sized to the provider's concurrency.
 *
 * Why: Node 20's global fetch (undici) routes every body through WHATWG streams; with the SDK's own work a call
 * cost 0.84–1.25 ms of main-thread CPU on this 2-core machine, so at concurrency 16 and 50 ms per call (320 calls/s)
 * the event loop, not the endpoint, was the limit on a loaded machine (CPU profile: undici + web streams +
 * AbortSignal ≈ 60 % of the non-idle time). A plain http.request over a pooled socket and a small Response stand-in
 * does the same exchange for 0.44–0.66 ms (scripts/bench-llm.ts, alternated in one process).
 *
 * What it implements is what the SDK uses for non-streaming JSON calls (openai/client.mjs `fetchWithTimeout`,
 * `makeRequest`; internal/parse.mjs): method, `Headers` or record headers, a string/bytes body and an AbortSignal
 * (the SDK's timeout aborts it: the promise rejects with an `AbortError`, which the SDK reports as a timeout); the
 * response's `status`, `ok`, `statusText`, `url`, `headers` (a real `Headers`), `json()`, `text()`, `arrayBuffer()`,
 * and `body: null` (nothing to cancel; the whole body has been read). Network errors reject with the socket error
 * (ECONNREFUSED, ECONNRESET…) as its `cause`, as undici's "fetch failed" does. Streaming responses are not
 * supported — no caller here streams.
 *
 * Replies are capped while they stream in (`maxReplyBytes`, src/core/reply-limit.ts): past the cap the socket is
 * destroyed and the promise rejects with ReplyTooLargeError; `text()` / `json()` decode strict UTF-8.
 */
import { type ClientRequest, Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { DEFAULT_MAX_REPLY_BYTES, ReplyTooLargeError, replyText } from '../../core/reply-limit.ts';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The parts of a WHATWG Response the SDK reads, over a fully read body. */
class BufferedResponse {
  readonly ok: boolean;
  readonly body = null;
  readonly bodyUsed = false;
  readonly redirected = false;
  readonly type = 'basic';

  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    private readonly bytes: Buffer,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  text(): Promise<string> {
    try {
      return Promise.resolve(replyText(this.bytes));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  json(): Promise<unknown> {
    try {
      return Promise.resolve(JSON.parse(replyText(this.bytes)) as unknown);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(
      this.bytes.buffer.slice(this.bytes.byteOffset, this.bytes.byteOffset + this.bytes.byteLength) as ArrayBuffer,
    );
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error('This operation was aborted', reason !== undefined ? { cause: reason } : undefined);
  err.name = 'AbortError';
  return err;
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) headers.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(headers)) for (const [k, v] of headers as [string, string][]) out[k.toLowerCase()] = v;
  else
    for (const [k, v] of Object.entries(headers)) if (v !== undefined && v !== null) out[k.toLowerCase()] = String(v);
  return out;
}

function responseHeaders(res: IncomingMessage): Headers {
  const h = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) h.append(raw[i]!, raw[i + 1]!);
  return h;
}

/** A request body as bytes (none when absent); a TypeError for a body the pooled fetch cannot send. */
function bodyBytes(body: RequestInit['body']): Buffer | undefined | TypeError {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body !== undefined && body !== null)
    return new TypeError('pooled fetch: only string or byte bodies are supported');
  return undefined;
}

/**
 * Reads a response body into a BufferedResponse: refused (ReplyTooLargeError) once it is, or declares to be, over
 * `maxReplyBytes`; an error or a body cut short (the signal aborted, the socket dropped) rejects as fetch does.
 */
function readResponse(
  res: IncomingMessage,
  opts: { url: string; signal: AbortSignal | undefined; maxReplyBytes: number; capOption: string },
  call: {
    req: ClientRequest;
    done: () => void;
    resolve: (r: Response) => void;
    reject: (err: unknown) => void;
  },
): void {
  const { url, signal, maxReplyBytes } = opts;
  const { req, done, resolve, reject } = call;
  const chunks: Buffer[] = [];
  let received = 0;
  let tooLarge: ReplyTooLargeError | undefined;
  const declared = Number(res.headers['content-length'] ?? NaN);
  const refuse = (): void => {
    tooLarge = new ReplyTooLargeError(maxReplyBytes, opts.capOption);
    done();
    reject(tooLarge);
    req.destroy(tooLarge);
  };
  if (Number.isFinite(declared) && declared > maxReplyBytes) {
    refuse();
    return;
  }
  res.on('data', (c: Buffer) => {
    received += c.length;
    if (received > maxReplyBytes) {
      if (!tooLarge) refuse();
      return;
    }
    chunks.push(c);
  });
  res.on('error', (err) => {
    done();
    reject(err.name === 'AbortError' ? err : new TypeError('fetch failed', { cause: err }));
  });
  // Destroyed mid-body (the signal aborted, the socket dropped) without an 'error' event: not a response.
  res.on('close', () => {
    if (!res.complete && !tooLarge) {
      done();
      reject(
        signal?.aborted
          ? abortError(signal)
          : new TypeError('fetch failed', { cause: new Error('response body incomplete') }),
      );
    }
  });
  res.on('end', () => {
    done();
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    resolve(
      new BufferedResponse(
        url,
        res.statusCode ?? 0,
        res.statusMessage ?? '',
        responseHeaders(res),
        bytes,
      ) as unknown as Response,
    );
  });
}

/**
 * A fetch with its own keep-alive pools (one for http, one for https) of at most `maxSockets` connections per
 * host. `close()` destroys idle sockets (call it when the provider is done; the pools also time out idle sockets).
 */
export function createPooledFetch(
  maxSockets: number,
  maxReplyBytes = DEFAULT_MAX_REPLY_BYTES,
  capOption = 'llm.maxReplyBytes',
): FetchLike & { close(): void } {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
  const agents = { http: new HttpAgent(options), https: new HttpsAgent(options) };
  const fetchImpl = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const u = new URL(url);
    const https = u.protocol === 'https:';
    const headers = headerRecord(init.headers);
    const payload = bodyBytes(init.body);
    if (payload instanceof TypeError) return Promise.reject(payload);
    if (payload) headers['content-length'] = String(payload.byteLength);
    return new Promise<Response>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(u, {
        method: init.method ?? 'GET',
        headers,
        agent: https ? agents.https : agents.http,
      });
      const onAbort = () => req.destroy(abortError(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      req.on('error', (err) => {
        done();
        if (err.name === 'AbortError') reject(err);
        else reject(new TypeError('fetch failed', { cause: err }));
      });
      req.on('response', (res) => {
        readResponse(res, { url, signal, maxReplyBytes, capOption }, { req, done, resolve, reject });
      });
      req.end(payload);
    });
  };
  return Object.assign(fetchImpl, {
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}
