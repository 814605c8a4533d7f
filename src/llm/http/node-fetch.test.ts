/**
 * The pooled fetch (node-fetch.ts) against a real loopback HTTP server: what goes on the wire (method, headers from a
 * `Headers` or a record, body, content-length), what the openai SDK reads back (status, ok, headers, json/text), that
 * connections are reused and capped at the pool size, and that aborts and refused connections fail the way the SDK
 * classifies them (AbortError → timeout; TypeError with the socket error as cause → connection error).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPooledFetch } from './node-fetch.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  socket: number;
}

async function startServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const seen: Seen[] = [];
  const sockets = new Map<object, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!sockets.has(req.socket)) sockets.set(req.socket, sockets.size);
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        socket: sockets.get(req.socket)!,
      });
      handler(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

describe('createPooledFetch', () => {
  it('sends method, headers and body, and returns status, headers and the JSON body', async () => {
    const server = await startServer((_req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req-1' });
      res.end(JSON.stringify({ echo: JSON.parse(body) as unknown, text: '你好' }));
    });
    cleanup.push(server.close);
    const fetch = createPooledFetch(4);
    cleanup.push(() => fetch.close());
    const res = await fetch(`${server.url}/v1/chat/completions?x=1`, {
      method: 'POST',
      headers: new Headers({ Authorization: 'Bearer k', 'Content-Type': 'application/json' }),
      body: JSON.stringify({ q: '中文 text' }),
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(await res.json()).toEqual({ echo: { q: '中文 text' }, text: '你好' });
    const s = server.seen[0]!;
    expect(s.method).toBe('POST');
    expect(s.url).toBe('/v1/chat/completions?x=1');
    expect(s.headers.authorization).toBe('Bearer k');
    expect(s.headers['content-type']).toBe('application/json');
    expect(Number(s.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify({ q: '中文 text' })));
    expect(s.body).toBe(JSON.stringify({ q: '中文 text' }));
  });

  it('returns error statuses as responses (not rejections), with the body as text', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' });
      res.end('{"error":{"message":"slow down"}}');
    });
    cleanup.push(server.close);
    const fetch = createPooledFetch(1);
    cleanup.push(() => fetch.close());
    const res = await fetch(`${server.url}/x`, { method: 'POST', headers: { 'X-A': 'b' }, body: '{}' });
    expect(res.ok).toBe(false);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.text()).toBe('{"error":{"message":"slow down"}}');
    expect(server.seen[0]!.headers['x-a']).toBe('b');
  });

  it('reuses kept-alive connections and opens no more than the pool size', async () => {
    const server = await startServer((_req, res) => setTimeout(() => res.end('{}'), 20));
    cleanup.push(server.close);
    const fetch = createPooledFetch(3);
    cleanup.push(() => fetch.close());
    await Promise.all(Array.from({ length: 12 }, () => fetch(`${server.url}/a`, { method: 'POST', body: '{}' })));
    for (let i = 0; i < 5; i++) await fetch(`${server.url}/b`, { method: 'POST', body: '{}' });
    expect(server.seen).toHaveLength(17);
    expect(server.connections()).toBe(3);
  });

  it('rejects with an AbortError when the signal aborts (the SDK reports a timeout)', async () => {
    const server = await startServer(() => undefined); // never answers
    cleanup.push(server.close);
    const fetch = createPooledFetch(2);
    cleanup.push(() => fetch.close());
    const controller = new AbortController();
    const pending = fetch(`${server.url}/hang`, { method: 'POST', body: '{}', signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const already = new AbortController();
    already.abort();
    await expect(fetch(`${server.url}/x`, { signal: already.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects a refused connection with TypeError("fetch failed") and the socket error as cause', async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    const fetch = createPooledFetch(1);
    cleanup.push(() => fetch.close());
    const err = await fetch(`${url}/x`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toBe('fetch failed');
    expect(((err as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });
});
