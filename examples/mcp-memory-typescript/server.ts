/**
 * A reference MCP memory server: the ReasoningBank tool names and arguments (tools.ts), a BM25 memory (bank.ts), over
 * stdio or Streamable HTTP, on the official SDK (@modelcontextprotocol/sdk; the stateless HTTP pattern of
 * modelcontextprotocol/typescript-sdk@e55c327 src/examples/server/simpleStatelessStreamableHttp.ts: one server and
 * transport per request, over one shared store).
 *
 *   npx tsx examples/mcp-memory-typescript/server.ts                       (stdio)
 *   npx tsx examples/mcp-memory-typescript/server.ts --http --port 8766    (http://127.0.0.1:8766/mcp; --port 0: any)
 *
 * Options: `--delay-ms N` (asynchronous extraction delay, default 20), `--stall` (extraction never finishes),
 * `--fault missing-arg|no-text` (planted protocol faults), `--api-key-env NAME` (HTTP: require `Authorization: Bearer`
 * with that variable's value; default MCP_MEMORY_API_KEY when set). With MCP_MEMORY_REQUEST_LOG set, each answered request
 * appends a line to that file (tests count a stdio server's requests so). Importable: `startMcpMemoryHttpServer()`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MemoryStore, type MemoryStoreOptions } from './bank.ts';
import { createMcpMemoryServer, type Fault } from './tools.ts';

export interface McpMemoryHttpServer {
  /** The MCP endpoint (`…/mcp`). */
  url: string;
  store: MemoryStore;
  close(): Promise<void>;
}

export interface ReferenceOptions extends MemoryStoreOptions {
  fault?: Fault;
}

async function handle(
  store: MemoryStore,
  o: ReferenceOptions & { apiKey?: string },
  req: IncomingMessage,
  res: ServerResponse,
) {
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  if (o.apiKey && req.headers.authorization !== `Bearer ${o.apiKey}`) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"missing or wrong bearer key"}');
    return;
  }
  if (req.method !== 'POST') {
    // Stateless: no server-initiated stream, no session to delete.
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    res.writeHead(400).end();
    return;
  }
  const server = createMcpMemoryServer(store, o.fault);
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true }); // no sessionIdGenerator: stateless;
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

export async function startMcpMemoryHttpServer(
  o: ReferenceOptions & { port?: number; host?: string; apiKey?: string } = {},
): Promise<McpMemoryHttpServer> {
  const store = new MemoryStore(o);
  const http = createServer((req, res) => {
    handle(store, o, req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((ok) => http.listen(o.port ?? 0, o.host ?? '127.0.0.1', ok));
  const { address, port } = http.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/mcp`,
    store,
    close: () =>
      new Promise((ok) => {
        http.closeAllConnections();
        http.close(() => ok());
      }),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      http: { type: 'boolean', default: false },
      port: { type: 'string', default: '8766' },
      host: { type: 'string', default: '127.0.0.1' },
      'delay-ms': { type: 'string', default: '20' },
      stall: { type: 'boolean', default: false },
      fault: { type: 'string' },
      'api-key-env': { type: 'string', default: 'MCP_MEMORY_API_KEY' },
    },
  });
  const fault = values.fault;
  if (fault !== undefined && fault !== 'missing-arg' && fault !== 'no-text') {
    process.stderr.write(`--fault must be missing-arg or no-text, not ${fault}\n`);
    process.exit(2);
  }
  const o: ReferenceOptions = {
    delayMs: Number(values['delay-ms']),
    stall: values.stall!,
    requestLog: process.env.MCP_MEMORY_REQUEST_LOG,
    ...(fault ? { fault } : {}),
  };
  if (!values.http) {
    await createMcpMemoryServer(new MemoryStore(o), o.fault).connect(new StdioServerTransport());
    return;
  }
  const key = process.env[values['api-key-env']!];
  const s = await startMcpMemoryHttpServer({
    ...o,
    port: Number(values.port),
    host: values.host!,
    ...(key ? { apiKey: key } : {}),
  });
  process.stdout.write(`MCP memory server listening on ${s.url}\n`);
}

// Run as a program (not when imported).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
