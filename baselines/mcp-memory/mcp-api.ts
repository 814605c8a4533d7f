/**
 * An MCP memory server as a memory-server API (baselines/memory-server/api.ts), so it gets the machinery http-memory,
 * Mem0 and Zep have: ingestion once per haystack, resume from the results file's markers, the search cache (a rerun
 * into a new results file calls no tool), every request recorded, cleanup. The tool mapping (options.ts, presets.ts)
 * decides which tool ingests a session and which searches; templates (template.ts) are checked against each tool's
 * inputSchema at the handshake (`health`), before any work.
 *
 * - Isolation: each haystack is a namespace (`{{namespace}}`, e.g. ReasoningBank's `agent_id`); a mapping whose
 *   ingest and search do not both use it is refused (a reset tool alone would need haystacks one at a time, which
 *   this method does not do).
 * - Asynchronous ingestion: a reply whose `status` is "processing" (ReasoningBank's `async_mode`) leaves a probe —
 *   the batch's longest message — in its receipt; processing counts as done once searching the namespace for the
 *   last probe returns a memory, and a server still processing after `ingestTimeoutMs` is an error row.
 * - A tool call is not idempotent and MCP has no batch id: a batch whose send was interrupted is sent again (at
 *   least once), which the results file's markers make rare (only a kill between send and reply).
 */
import type { CallRecord } from '../../src/core/calls.ts';
import { SetupError } from '../../src/core/errors.ts';
import type { Batch, BatchReceipt, Call, MemoryServerApi, ServerHit } from '../memory-server/api.ts';
import { toUtcIso } from '../memory-server/api.ts';
import { type ConnectionSpec, McpConnection } from './connection.ts';
import type { ReplyMap, ToolMap } from './presets.ts';
import { checkTemplate, fill, INGEST_VARIABLES, SEARCH_VARIABLES, variablesOf } from './template.ts';

export interface McpApiOptions {
  spec: ConnectionSpec;
  tools: ToolMap;
  version: string;
  /** Where the server is (URL or command line), in the cache keys. */
  where: string;
}

const LABEL = 'mcp-memory';

/** The value at a dotted path ('' = the value itself). */
export function at(value: unknown, path: string): unknown {
  if (path === '') return value;
  let v = value;
  for (const key of path.split('.'))
    v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** The reply's memories as hits; an item without text is an error naming the tool and path. */
export function toHits(body: unknown, reply: ReplyMap, tool: string): ServerHit[] {
  if (typeof body === 'string' && reply.items === '')
    return body.trim() === '' ? [] : [{ text: body, score: 1, sources: [] }];
  const items = at(body, reply.items);
  if (!Array.isArray(items))
    throw new Error(
      `${LABEL}: tool ${tool}: the reply has no array at "${reply.items || '(root)'}" (tools.search.reply.items)`,
    );
  // Every memory the server returned (the shared method cuts to k and records the cut: the fairness contract).
  return items.map((it, i): ServerHit => {
    const text = at(it, reply.text);
    if (typeof text !== 'string' || text === '')
      throw new Error(
        `${LABEL}: tool ${tool}: memory ${i} of the reply has no text at "${reply.text}" (tools.search.reply.text)`,
      );
    const score = reply.score ? at(it, reply.score) : undefined;
    const ids = reply.ids ? at(it, reply.ids) : undefined;
    const time = reply.time ? at(it, reply.time) : undefined;
    const iso = typeof time === 'string' ? toUtcIso(time) : undefined;
    return {
      text,
      score: typeof score === 'number' ? score : 1 / (i + 1),
      ...(iso ? { at: iso } : {}),
      sources: Array.isArray(ids)
        ? ids.filter((x): x is string => typeof x === 'string')
        : typeof ids === 'string'
          ? [ids]
          : [],
    };
  });
}

function ingestVariables(ns: string, b: Batch): Record<string, unknown> {
  const first = b.messages[0]!;
  return {
    namespace: ns,
    batch_id: b.id,
    session_id: first.sessionId,
    session_date: first.at,
    session_title: `session ${first.sessionId} (${first.at.slice(0, 10)})`,
    trajectory: b.messages.map((m, i) => ({
      step: i + 1,
      role: m.role,
      content: m.speaker ? `${m.speaker}: ${m.text}` : m.text,
      metadata: {
        unit_id: m.unitId,
        session_id: m.sessionId,
        time: m.at,
        ...(m.speaker ? { speaker: m.speaker } : {}),
      },
    })),
    messages: b.messages.map((m) => ({
      unit_id: m.unitId,
      role: m.role,
      speaker: m.speaker ?? null,
      text: m.text,
      time: m.at,
    })),
    text: b.messages.map((m) => (m.speaker ? `${m.speaker}: ${m.text}` : m.text)).join('\n'),
  };
}

/** Checks the mapping against the listed tools (one line naming tool and field) and the isolation rule. */
export function checkMapping(tools: ToolMap, listed: readonly { name: string; inputSchema: unknown }[]): void {
  const roles = [
    ['ingest', tools.ingest, INGEST_VARIABLES],
    ['search', tools.search, SEARCH_VARIABLES],
    ...(tools.reset ? [['reset', tools.reset, ['namespace']] as const] : []),
  ] as const;
  for (const [role, call, allowed] of roles) {
    const tool = listed.find((t) => t.name === call.name);
    if (!tool)
      throw new SetupError(
        `${LABEL}: the server has no tool ${call.name} (tools.${role}); it has: ${listed.map((t) => t.name).join(', ')}`,
      );
    checkTemplate(role, call.name, call.arguments, tool.inputSchema, allowed);
  }
  const isolated =
    variablesOf(tools.ingest.arguments).has('namespace') && variablesOf(tools.search.arguments).has('namespace');
  if (!isolated)
    throw new SetupError(
      `${LABEL}: refusing to run: tools.ingest and tools.search must both pass {{namespace}} (e.g. agent_id) so haystacks never mix${tools.reset ? ' (a reset tool alone is not isolation here)' : ''}`,
    );
}

/**
 * The MCP connection, opened on first use (its tools checked against the mapping; a failed open is retried on the
 * next call), with the server's name and version from its handshake.
 */
function mcpSession(o: McpApiOptions) {
  let conn: Promise<McpConnection> | undefined;
  let server: string | undefined;
  const connect = (calls: CallRecord[]) => {
    conn ??= McpConnection.open(o.spec, calls, LABEL).then(
      (c) => {
        try {
          checkMapping(o.tools, c.tools);
        } catch (err) {
          void c.close();
          throw err;
        }
        return c;
      },
      (err: unknown) => {
        conn = undefined;
        throw err;
      },
    );
    return conn;
  };
  return {
    server: () => server,
    async health(c: Call): Promise<void> {
      server = (await connect(c.calls)).server;
    },
    async call(c: Call, tool: { name: string; arguments: Record<string, unknown> }, vars: Record<string, unknown>) {
      const cn = await connect(c.calls);
      server = cn.server;
      return cn.call(tool.name, fill(tool.arguments, vars) as Record<string, unknown>, c.stage, c.calls, LABEL);
    },
    async disconnect(): Promise<void> {
      const c = conn;
      conn = undefined;
      if (c) await (await c.catch(() => undefined))?.close();
    },
  };
}

export function createMcpApi(
  o: McpApiOptions,
): MemoryServerApi & { serverInfo(): string | undefined; disconnect(): Promise<void> } {
  const session = mcpSession(o);
  const call = session.call;
  const search = async (ns: string, text: string, askedAt: string | undefined, k: number, c: Call) =>
    toHits(
      await call(c, o.tools.search, { namespace: ns, query: text, k, question_date: askedAt ?? '' }),
      o.tools.search.reply,
      o.tools.search.name,
    );
  return {
    label: LABEL,
    output: o.tools.search.reply.ids ? 'units' : 'text',
    maxBatch: 500,
    visibility: 'immediate',
    usesQuestionDate: variablesOf(o.tools.search.arguments).has('question_date'),
    sourcesAreUnitIds: true,
    ingestSettings: { mcp: o.where, ingest: o.tools.ingest, version: o.version },
    searchSettings: { mcp: o.where, search: o.tools.search, version: o.version },
    serverInfo: session.server,
    disconnect: session.disconnect,
    health: session.health,
    async prepare(ns, c) {
      if (o.tools.reset) await call(c, o.tools.reset, { namespace: ns });
      return {};
    },
    async addBatch(ns, _state, batch, c): Promise<BatchReceipt> {
      const body = await call(c, o.tools.ingest, ingestVariables(ns, batch));
      if ((body as { status?: unknown } | undefined)?.status !== 'processing') return { handles: [], ids: {} };
      const probe = batch.messages.reduce((a, m) => (m.text.length > a.length ? m.text : a), '').slice(0, 300);
      return { handles: [probe], ids: {} };
    },
    landedBatches: async () => new Map(),
    async processed(ns, _state, receipts, _expected, c) {
      const last = [...receipts].reverse().find((r) => r && r.handles.length > 0);
      if (!last) return { done: true };
      return (await search(ns, last.handles[0]!, undefined, 1, c)).length > 0 ? { done: true } : { done: false };
    },
    async count() {
      throw new Error(`${LABEL}: an MCP memory server offers no count of its memories`);
    },
    search: (ns, _state, query, k, c) => search(ns, query.text, toUtcIso(query.askedAt), k, c),
    async remove(ns, _state, c) {
      if (o.tools.reset) await call(c, o.tools.reset, { namespace: ns });
    },
  };
}
