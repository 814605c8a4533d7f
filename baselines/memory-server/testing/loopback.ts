/**
 * A scriptable JSON server on 127.0.0.1 for the memory-server stand-ins (Mem0, Zep, Graphiti cannot run here). A
 * stand-in declares routes — method, path pattern, a zod schema of the documented request body and query — and the
 * semantics the adapters rely on; this module checks every request against them (unknown route, wrong auth header,
 * body or query off the documented shape → recorded in `violations` and answered 4xx, so a test fails on the first
 * wrong request), records every request, and applies scripted faults first: an HTTP status (429 with Retry-After,
 * 500…), a delay (slow server), a malformed JSON body, a dropped connection — or, with `after`, the same failures once
 * the request has been handled (the server stored a batch, then answered 500 or the connection broke: what a client
 * must not answer by blindly sending the add again).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';

export interface Reply {
  status?: number;
  body?: unknown;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Matched against the path (no query); groups are handed to `handle`. */
  path: RegExp;
  body?: z.ZodType;
  query?: z.ZodType;
  handle(
    params: string[],
    body: unknown,
    query: Record<string, string>,
    headers: Record<string, string | undefined>,
  ): Reply | Promise<Reply>;
}

export interface Fault {
  /** Only requests whose `METHOD path` contains this (default: any request). */
  match?: string;
  status?: number;
  retryAfterSec?: number;
  delayMs?: number;
  malformed?: boolean;
  /** Close the connection without any reply. */
  drop?: boolean;
  /** Handle the request first (its effects happen), then fail as scripted instead of sending the real reply. */
  after?: boolean;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string | undefined>;
}

export interface Loopback {
  baseUrl: string;
  requests: LoggedRequest[];
  violations: string[];
  faults: Fault[];
  /** Requests whose `METHOD path` matches. */
  count(match?: RegExp): number;
  close(): Promise<void>;
}

export interface LoopbackOptions {
  routes: Route[];
  /** Path prefix of every route (e.g. `/api/v2`). */
  prefix?: string;
  /** Required auth header (lower-case name) and its exact value (or any of several keys); absent = no auth. */
  auth?: { header: string; value: string | readonly string[] };
}

export async function startLoopback(opts: LoopbackOptions): Promise<Loopback> {
  const requests: LoggedRequest[] = [];
  const violations: string[] = [];
  const faults: Fault[] = [];
  const prefix = opts.prefix ?? '';

  const server = createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => send(res, 500, { error: String(err) }));
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const query = Object.fromEntries(url.searchParams);
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = raw;
    }
    const method = req.method ?? 'GET';
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
    );
    requests.push({ method, path: url.pathname, query, body, headers });
    const what = `${method} ${url.pathname}`;

    const fi = faults.findIndex((f) => f.match === undefined || what.includes(f.match));
    const fault = fi >= 0 ? faults.splice(fi, 1)[0] : undefined;
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault && !fault.after && fail(res, fault)) return;
    const reply = await route(method, url.pathname, what, body, query, headers);
    if (fault?.after && fail(res, fault)) return;
    send(res, reply.status ?? 200, reply.body);
  }

  /** Answers as the fault says; false when the fault only delays. */
  function fail(res: ServerResponse, f: Fault): boolean {
    if (f.drop) {
      res.socket?.destroy();
      return true;
    }
    if (f.malformed) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [');
      return true;
    }
    if (f.status) {
      const h: Record<string, string> = { 'content-type': 'application/json' };
      if (f.retryAfterSec !== undefined) h['retry-after'] = String(f.retryAfterSec);
      res.writeHead(f.status, h).end(JSON.stringify({ error: `scripted ${f.status}` }));
      return true;
    }
    return false;
  }

  async function route(
    method: string,
    pathname: string,
    what: string,
    body: unknown,
    query: Record<string, string>,
    headers: Record<string, string | undefined>,
  ): Promise<Reply> {
    if (opts.auth && !accepted(opts.auth, headers)) return { status: 401, body: { detail: 'Authentication required' } };
    if (!pathname.startsWith(prefix)) {
      violations.push(`${what}: outside ${prefix}`);
      return { status: 404, body: { detail: 'Not Found' } };
    }
    const path = pathname.slice(prefix.length);
    for (const r of opts.routes) {
      const m = r.method === method ? r.path.exec(path) : null;
      if (!m) continue;
      for (const [part, schema, value] of [
        ['body', r.body, body],
        ['query', r.query, query],
      ] as const) {
        if (!schema) continue;
        const p = schema.safeParse(value);
        if (!p.success) {
          const issue = p.error.issues[0];
          violations.push(`${what} ${part}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`);
          return { status: 422, body: { detail: `invalid ${part}` } };
        }
      }
      if (r.body === undefined && body !== undefined) violations.push(`${what}: unexpected body`);
      return r.handle(m.slice(1).map(decodeURIComponent), body, query, headers);
    }
    violations.push(`${what}: no such route`);
    return { status: 404, body: { detail: 'Not Found' } };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    requests,
    violations,
    faults,
    count: (match) => requests.filter((r) => !match || match.test(`${r.method} ${r.path}`)).length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function accepted(auth: NonNullable<LoopbackOptions['auth']>, headers: Record<string, string | undefined>): boolean {
  const got = headers[auth.header];
  return typeof auth.value === 'string' ? got === auth.value : got !== undefined && auth.value.includes(got);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
}

/** Word-overlap similarity in [0, 1] (cosine of word sets; CJK characters count as words), the stand-ins' search. */
export function overlapScore(query: string, text: string): number {
  const words = (s: string) => new Set(s.toLowerCase().match(/[\p{Script=Han}]|[\p{L}\p{N}]+/gu) ?? []);
  const q = words(query);
  const t = words(text);
  if (q.size === 0 || t.size === 0) return 0;
  let common = 0;
  for (const w of q) if (t.has(w)) common++;
  return common / Math.sqrt(q.size * t.size);
}
