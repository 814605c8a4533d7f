// protocol-check applies the run's own reply reading, so it fails every server the run would refuse: a 6 MB search
// reply (over the 4 MiB cap), a score of 1e999 (Infinity, which the run's schema refuses), a body that is not UTF-8,
// and an endless reply — read only up to the cap (the server is stopped after a few MB, never 200 MB).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpMemoryServer, startHttpMemoryServer } from '../../../examples/http-memory-typescript/server.ts';
import { runProtocolCheck } from './check.ts';

type Fault = (res: ServerResponse) => void;
let upstream: HttpMemoryServer;
let fault: Fault | undefined;
let proxy: ReturnType<typeof createServer>;
let url: string;
/** Bytes the endless reply wrote before the client hung up. */
let endlessBytes = 0;

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  upstream = await startHttpMemoryServer();
  // Forwards to the TypeScript reference server; a search reply is replaced by the fault under test.
  proxy = createServer(async (req, res) => {
    const sent = await body(req);
    const r = await fetch(upstream.url + req.url, {
      method: req.method ?? 'GET',
      headers: { 'content-type': 'application/json' },
      ...(sent.length > 0 ? { body: sent } : {}),
    });
    const got = Buffer.from(await r.arrayBuffer());
    if (fault && req.url?.endsWith('/search') && r.status === 200) return fault(res);
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(got);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await upstream.close();
});

const json = (res: ServerResponse, bytes: Buffer) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(bytes);
};

const FAULTS: [string, Fault, RegExp][] = [
  [
    'a 6 MB search reply',
    (res) =>
      json(res, Buffer.from(JSON.stringify({ items: [{ text: 'Miso '.repeat(1_200_000), unit_ids: ['pc-1'] }] }))),
    /exceeds the 4194304-byte cap \(llm\.maxReplyBytes\).*the run refuses this reply/,
  ],
  [
    'a score of 1e999',
    (res) =>
      json(res, Buffer.from('{"items":[{"text":"I adopted a cat named Miso","score":1e999,"unit_ids":["pc-1"]}]}')),
    /items\[0\]\.score is a number that is not finite/,
  ],
  [
    'a body that is not UTF-8',
    (res) =>
      json(res, Buffer.concat([Buffer.from('{"items":[{"text":"猫 Mis'), Buffer.from([0xff]), Buffer.from('o"}]}')])),
    /not valid UTF-8 \(byte 26\)/,
  ],
  [
    'a lone surrogate in a memory',
    (res) => json(res, Buffer.from('{"items":[{"text":"Miso \\ud800","unit_ids":["pc-1"]}]}')),
    /items\[0\]\.text: a lone surrogate \\ud800 at character 5/,
  ],
];

describe('protocol-check reads replies as the run does', () => {
  it('passes the reference server through the proxy', async () => {
    fault = undefined;
    expect((await runProtocolCheck(url)).filter((c) => !c.ok)).toEqual([]);
  });

  it.each(FAULTS)('fails %s', async (_name, f, detail) => {
    fault = f;
    const failed = (await runProtocolCheck(url)).filter((c) => !c.ok);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.name.includes('search'))).toBe(true);
    expect(failed[0]!.detail).toMatch(detail);
  });

  it('stops reading an endless reply at the cap', async () => {
    endlessBytes = 0;
    fault = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[{"text":"');
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        // Stops once the client hangs up, or as a guard at 200 MB (which the check must never reach).
        while (!res.destroyed && endlessBytes < 200 * 1024 * 1024) {
          endlessBytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    };
    const failed = (await runProtocolCheck(url)).filter((c) => !c.ok);
    expect(failed[0]!.detail).toMatch(/exceeds the 4194304-byte cap/);
    expect(endlessBytes).toBeLessThan(200 * 1024 * 1024);
  });
});
