/**
 * One MCP client connection for the `mcp-memory` method, on the official SDK (@modelcontextprotocol/sdk): stdio (the
 * server as a child process: `StdioClientTransport`, whose environment is the SDK's safe default plus `env`,
 * modelcontextprotocol/typescript-sdk@e55c327 src/client/stdio.ts `getDefaultEnvironment`) or Streamable HTTP
 * (`StreamableHTTPClientTransport`, the key as `Authorization: Bearer`). Every request is recorded as a CallRecord
 * (the handshake's initialize and tools/list as stage `connect`, tool calls under their stage), the key never in a
 * message. A tool reply is its `structuredContent`, else its first text content parsed as JSON, else that text; a
 * reply flagged `isError`, or whose `status` is "error" (ReasoningBank's convention), throws with the server's words.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type CallRecord, recordCall } from '../../src/core/calls.ts';
import { errorMessage } from '../../src/core/errors.ts';
import { redact } from '../../src/llm/errors.ts';

export interface ConnectionSpec {
  transport: 'stdio' | 'http';
  command?: string | undefined;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  url?: string | undefined;
  key?: string | undefined;
  callTimeoutMs: number;
}

export interface ToolInfo {
  name: string;
  inputSchema: unknown;
}

/** Where the server is, as the user wrote it (URL, or the command line): labels and cache keys. */
export function describeServer(s: Pick<ConnectionSpec, 'transport' | 'command' | 'args' | 'url'>): string {
  return s.transport === 'http' ? s.url! : `stdio:${[s.command, ...s.args].join(' ')}`;
}

/** The transport, and for stdio the last lines the server wrote to stderr (said when the connection fails). */
function transportOf(s: ConnectionSpec): { transport: Transport; stderrTail: () => string } {
  if (s.transport === 'http') {
    const headers: Record<string, string> = s.key ? { authorization: `Bearer ${s.key}` } : {};
    return {
      transport: new StreamableHTTPClientTransport(new URL(s.url!), { requestInit: { headers } }),
      stderrTail: () => '',
    };
  }
  const t = new StdioClientTransport({
    command: s.command!,
    args: s.args,
    env: { ...getDefaultEnvironment(), ...s.env },
    ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
    stderr: 'pipe',
  });
  let tail = '';
  t.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-400);
  });
  return { transport: t, stderrTail: () => tail.trim().split('\n').slice(-2).join(' | ') };
}

export class McpConnection {
  private constructor(
    private readonly client: Client,
    private readonly spec: ConnectionSpec,
    readonly server: string,
    readonly tools: ToolInfo[],
  ) {}

  /** Connects (initialize) and lists the tools; both recorded under stage `connect`. */
  static async open(spec: ConnectionSpec, calls: CallRecord[], label: string): Promise<McpConnection> {
    const client = new Client({ name: 'adaptmr-bench', version: '1' });
    const t0 = performance.now();
    const rec = (error?: string) =>
      recordCall(calls, {
        stage: 'connect',
        model: label,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: performance.now() - t0,
        cached: false,
        costUsd: 0,
        ...(error !== undefined ? { error } : {}),
      });
    const { transport, stderrTail } = transportOf(spec);
    try {
      await client.connect(transport, { timeout: spec.callTimeoutMs });
    } catch (err) {
      const said = stderrTail();
      const why = redact(`${errorMessage(err)}${said ? ` (the server said: ${said})` : ''}`, spec.key);
      await rec(why);
      throw new Error(`cannot connect to ${describeServer(spec)}: ${why}`);
    }
    await rec();
    const v = client.getServerVersion();
    const server = v ? `${v.name}@${v.version}` : 'unknown';
    const conn = new McpConnection(client, spec, server, []);
    const listed = await conn.request('connect', calls, label, () =>
      client.listTools(undefined, { timeout: spec.callTimeoutMs }),
    );
    conn.tools.push(...listed.tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema })));
    return conn;
  }

  private async request<T>(stage: string, calls: CallRecord[], label: string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    let error: string | undefined;
    try {
      return await fn();
    } catch (err) {
      error = redact(errorMessage(err), this.spec.key);
      throw new Error(error);
    } finally {
      await recordCall(calls, {
        stage,
        model: label,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: performance.now() - t0,
        cached: false,
        costUsd: 0,
        ...(error !== undefined ? { error } : {}),
      });
    }
  }

  /** Calls a tool; returns its reply as JSON (or text); throws on a reply flagged as an error. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    stage: string,
    calls: CallRecord[],
    label: string,
  ): Promise<unknown> {
    const res = await this.request(stage, calls, label, () =>
      this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.spec.callTimeoutMs }),
    );
    const texts = (Array.isArray(res.content) ? res.content : [])
      .filter((c): c is { type: 'text'; text: string } => c?.type === 'text' && typeof c.text === 'string')
      .map((c) => c.text);
    let body: unknown = res.structuredContent;
    if (body === undefined && texts.length > 0) {
      try {
        body = JSON.parse(texts[0]!);
      } catch {
        body = texts.join('\n');
      }
    }
    const status = (body as { status?: unknown } | undefined)?.status;
    if (res.isError === true || status === 'error') {
      const msg = (body as { message?: unknown } | undefined)?.message ?? texts.join(' ');
      throw new Error(`${label}: tool ${tool} failed: ${redact(String(msg), this.spec.key).slice(0, 300)}`);
    }
    return body;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
