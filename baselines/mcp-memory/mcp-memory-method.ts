/**
 * The `mcp-memory` method: any memory system shipped as a Model Context Protocol server, benchmarked with no code —
 * the experiment file says how to start or reach it (`transport: stdio | http`, `command`, `args`, `env`, `cwd`,
 * `url`, `apiKeyEnv`) and which tools ingest and search (`tools`, or `preset: reasoningbank`). It runs on the machinery
 * of http-memory, Mem0 and Zep (baselines/memory-server/): each haystack ingested once per run into its own namespace,
 * resumable, searched per question, the search cache looked up before anything (a rerun into a new results file calls
 * no tool), every request recorded, namespaces reset at the end where a reset tool is mapped (unless `keep`). The
 * server's name and version from the MCP handshake are kept in each retrieval's notes (`server`).
 */
import { resolve } from 'node:path';
import { defineMethod } from '../../src/core/method-entry.ts';
import { createMemoryServerMethod } from '../memory-server/memory-server-method.ts';
import { resolveAuth } from '../memory-server/options.ts';
import { type ConnectionSpec, describeServer } from './connection.ts';
import { createMcpApi } from './mcp-api.ts';
import { McpMemoryOptionsSchema, resolveTools } from './options.ts';

const REFERENCE = 'examples/mcp-memory-typescript/server.ts';

export const mcpMemoryEntry = defineMethod({
  name: 'mcp-memory',
  description:
    'any memory system served over the Model Context Protocol (stdio or Streamable HTTP): tools mapped by the experiment file or a preset',
  optionsSchema: McpMemoryOptionsSchema,
  examples: [
    {
      label: 'reference MCP server, reasoningbank preset (HTTP)',
      options: { transport: 'http', url: 'http://127.0.0.1:1/mcp', preset: 'reasoningbank', pollMs: 10 },
      fixtures: { url: 'mcp-memory-server' },
    },
    {
      label: 'reference MCP server, declared tools with unit ids and times (HTTP)',
      options: {
        transport: 'http',
        url: 'http://127.0.0.1:1/mcp',
        pollMs: 10,
        tools: {
          ingest: {
            name: 'extract_memory',
            arguments: {
              trajectory: '{{trajectory}}',
              query: '{{session_title}}',
              async_mode: false,
              agent_id: '{{namespace}}',
            },
          },
          search: {
            name: 'retrieve_memory',
            arguments: { query: '{{query}}', top_k: '{{k}}', agent_id: '{{namespace}}' },
            reply: { items: 'memories', text: 'content', score: 'score', ids: 'unit_ids', time: 'timestamp' },
          },
        },
      },
      fixtures: { url: 'mcp-memory-server' },
    },
  ],
  create(o, f) {
    const transport = o.transport ?? (o.command !== undefined ? 'stdio' : 'http');
    const auth = transport === 'http' ? resolveAuth(o.apiKeyEnv, 'Authorization', 'Bearer ') : undefined;
    const spec: ConnectionSpec = {
      transport,
      command: o.command,
      args: o.args,
      env: o.env,
      cwd: o.cwd !== undefined ? resolve(o.cwd) : undefined,
      url: o.url,
      key: auth?.secret,
      callTimeoutMs: o.callTimeoutMs,
    };
    const where = describeServer(spec);
    const api = createMcpApi({ spec, tools: resolveTools(o), version: o.version, where });
    const hint = `Check the server (adaptmr protocol-check --mcp "<command line>" | <url>; the reference server is ${REFERENCE}) and the tools mapping`;
    const method = createMemoryServerMethod(
      api,
      {
        endpoint: { label: api.label, baseUrl: where },
        keep: o.keep,
        pollMs: o.pollMs,
        ingestTimeoutMs: o.ingestTimeoutMs,
        hint,
      },
      f,
    );
    return {
      ...method,
      async close() {
        try {
          await method.close?.();
        } finally {
          await api.disconnect();
        }
      },
    };
  },
});
