/**
 * The reference server's two MCP tools, named and shaped as ReasoningBank's MCP server names and shapes them
 * (hanw39/ReasoningBank-MCP@29e62c3 src/tools/retrieve_memory.py, src/tools/extract_memory.py):
 *
 *   retrieve_memory { query, top_k?, agent_id? } → { status, min_score_threshold, filtered_count,
 *                     memories: [{ memory_id, score, title, content, success, agent_id, timestamp, unit_ids }],
 *                     formatted_prompt } (`timestamp` and `unit_ids`, from the step's metadata, are this server's additions)
 *   extract_memory  { trajectory: [{ step, role, content, metadata? }], query, success_signal?, async_mode?, agent_id? }
 *                   → { status: "processing", task_id, async_mode: true } or { status: "completed", extracted_count, … }
 *
 * Planted faults (for `adaptmr protocol-check --mcp`): `missing-arg` leaves `agent_id` out of retrieve_memory's
 * inputSchema; `no-text` answers a search with memories that have no `content`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { MemoryStore, TrajectoryStep } from './bank.ts';

export type Fault = 'missing-arg' | 'no-text';
export const SERVER_INFO = { name: 'adaptmr-mcp-memory-reference', version: '1.0.0' };

const STEP = {
  type: 'object',
  properties: {
    step: { type: 'integer' },
    role: { type: 'string' },
    content: { type: 'string' },
    metadata: { type: 'object' },
  },
  required: ['step', 'role', 'content'],
};

function toolList(fault: Fault | undefined) {
  const retrieve: Record<string, unknown> = {
    query: { type: 'string', description: 'the task or question' },
    top_k: { type: 'integer', minimum: 1, description: 'how many memories' },
    agent_id: { type: 'string', description: 'the memory bank (multi-tenant isolation)' },
  };
  if (fault === 'missing-arg') delete retrieve.agent_id;
  return [
    {
      name: 'retrieve_memory',
      description: 'Retrieve the memories most relevant to a query (BM25).',
      inputSchema: { type: 'object', properties: retrieve, required: ['query'] },
    },
    {
      name: 'extract_memory',
      description: 'Store a trajectory as memories; asynchronous by default.',
      inputSchema: {
        type: 'object',
        properties: {
          trajectory: { type: 'array', items: STEP },
          query: { type: 'string' },
          success_signal: { type: ['boolean', 'null'] },
          async_mode: { type: 'boolean', default: true },
          agent_id: { type: 'string' },
        },
        required: ['trajectory', 'query'],
      },
    },
  ];
}

const text = (value: unknown, isError = false) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(value) }],
  ...(isError ? { isError: true } : {}),
});

function checkSteps(raw: unknown): TrajectoryStep[] {
  if (!Array.isArray(raw)) throw new Error('trajectory must be an array');
  return raw.map((s: Record<string, unknown>, i) => {
    if (typeof s?.content !== 'string' || typeof s.role !== 'string' || typeof s.step !== 'number')
      throw new Error(`trajectory[${i}] needs step (integer), role and content (strings)`);
    return s as unknown as TrajectoryStep;
  });
}

function retrieve(store: MemoryStore, a: Record<string, unknown>, fault: Fault | undefined) {
  if (typeof a.query !== 'string' || a.query === '') throw new Error('query must be a non-empty string');
  const k = typeof a.top_k === 'number' && a.top_k >= 1 ? Math.floor(a.top_k) : 5;
  const agent = typeof a.agent_id === 'string' ? a.agent_id : null;
  const hits = store.search(a.query, k, agent);
  const memories = hits.map(({ item, score }) => ({
    memory_id: item.memory_id,
    score,
    title: item.title,
    ...(fault === 'no-text' ? {} : { content: item.content }),
    success: item.success,
    agent_id: item.agent_id,
    timestamp: item.timestamp,
    unit_ids: item.unit_ids,
  }));
  const formatted = memories.map((m, i) => `${i + 1}. ${m.title}\n${m.content ?? ''}`).join('\n\n');
  return {
    status: memories.length > 0 ? 'success' : 'no_memories',
    min_score_threshold: 0,
    filtered_count: 0,
    memories,
    formatted_prompt: formatted,
  };
}

function extract(store: MemoryStore, a: Record<string, unknown>) {
  const steps = checkSteps(a.trajectory);
  if (typeof a.query !== 'string') throw new Error('query must be a string');
  const async = a.async_mode !== false;
  const agent = typeof a.agent_id === 'string' ? a.agent_id : null;
  const ids = store.extract(steps, a.query, a.success_signal !== false, agent, async);
  const taskId = `extract_${ids[0] ?? 'empty'}`;
  if (async) return { status: 'processing', message: 'extraction queued', task_id: taskId, async_mode: true };
  return { status: 'completed', success: a.success_signal !== false, extracted_count: ids.length, task_id: taskId };
}

/** One MCP server (one connection) over the shared store. */
export function createMcpMemoryServer(store: MemoryStore, fault?: Fault): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.oninitialized = () => store.answered('initialize');
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    store.answered('tools/list');
    return { tools: toolList(fault) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const a = (req.params.arguments ?? {}) as Record<string, unknown>;
    // The agent id, when given, follows the tool name in the request log (tests see which namespaces were used).
    const agent = typeof a.agent_id === 'string' ? ` ${a.agent_id}` : '';
    store.answered(`tools/call ${req.params.name}${agent}`);
    try {
      if (req.params.name === 'retrieve_memory') return text(retrieve(store, a, fault));
      if (req.params.name === 'extract_memory') return text(extract(store, a));
      return text({ status: 'error', message: `no tool named ${req.params.name}` }, true);
    } catch (err) {
      return text({ status: 'error', message: err instanceof Error ? err.message : String(err) }, true);
    }
  });
  return server;
}
