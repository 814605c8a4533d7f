/**
 * `protocol-check --mcp` against the reference MCP memory server: it passes over stdio (a command line) and over
 * HTTP, and names each planted fault — a tool whose inputSchema lacks a mapped argument (tool and field named), a
 * search reply whose memories have no text — and a server that is not there.
 */
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpMemoryHttpServer, startMcpMemoryHttpServer } from '../../../examples/mcp-memory-typescript/server.ts';
import { runMcpProtocolCheck, splitCommandLine } from './mcp-check.ts';

const SERVER = resolve('examples/mcp-memory-typescript/server.ts');
const started: McpMemoryHttpServer[] = [];
afterAll(async () => {
  for (const s of started) await s.close();
});
const start = async (o: Parameters<typeof startMcpMemoryHttpServer>[0]) => {
  const s = await startMcpMemoryHttpServer(o);
  started.push(s);
  return s;
};

describe('protocol-check --mcp', () => {
  it('splits a command line with quoted arguments', () => {
    expect(splitCommandLine(`node "a b.ts" --x 'c d' e`)).toEqual(['node', 'a b.ts', '--x', 'c d', 'e']);
  });

  it('passes the reference server over stdio, started by its command line', async () => {
    const results = await runMcpProtocolCheck(`"${process.execPath}" --import tsx "${SERVER}"`, {
      preset: 'reasoningbank',
    });
    expect(results.map((r) => [r.name, r.ok, r.detail])).toEqual([
      ['handshake, tools/list, tool mapping against inputSchema', true, undefined],
      ['search finds an English memory', true, undefined],
      ['search finds a Chinese memory', true, undefined],
    ]);
  });

  it('passes the reference server over HTTP', async () => {
    const s = await start({ delayMs: 5 });
    const results = await runMcpProtocolCheck(s.url, { preset: 'reasoningbank' });
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results).toHaveLength(3);
  });

  it('names the tool and the field when a schema lacks a mapped argument', async () => {
    const s = await start({ fault: 'missing-arg' });
    const results = await runMcpProtocolCheck(s.url, { preset: 'reasoningbank' });
    expect(results).toHaveLength(1);
    expect(results[0]!.ok).toBe(false);
    expect(results[0]!.detail).toMatch(
      /tool retrieve_memory \(tools\.search\): argument "agent_id" is not in its inputSchema/,
    );
  });

  it('names a search reply without text', async () => {
    const s = await start({ fault: 'no-text', delayMs: 5 });
    const results = await runMcpProtocolCheck(s.url, { preset: 'reasoningbank' });
    expect(results[0]!.ok).toBe(true);
    expect(results[1]!.ok).toBe(false);
    expect(results[1]!.detail).toMatch(/tool retrieve_memory: memory 0 of the reply has no text at "content"/);
  });

  it('says what a stdio server that cannot start wrote', async () => {
    const results = await runMcpProtocolCheck(
      `"${process.execPath}" -e "console.error('no such memory module'); process.exit(3)"`,
      {
        preset: 'reasoningbank',
      },
    );
    expect(results[0]!.ok).toBe(false);
    expect(results[0]!.detail).toMatch(/the server said: no such memory module/);
  });

  it('says when nothing answers', async () => {
    const results = await runMcpProtocolCheck('http://127.0.0.1:9/mcp', { preset: 'reasoningbank' });
    expect(results[0]!.ok).toBe(false);
    expect(results[0]!.detail).toMatch(/127\.0\.0\.1:9/);
  });
});
