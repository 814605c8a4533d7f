/**
 * Tool mappings of known MCP memory servers, so the real server, started by its own command, is one config line.
 *
 * `reasoningbank`: hanw39/ReasoningBank-MCP@29e62c3 src/tools/retrieve_memory.py and src/tools/extract_memory.py —
 * `retrieve_memory { query, top_k, agent_id }` → `{ status, memories: [{ memory_id, score, title, content, success,
 * agent_id }], formatted_prompt }` (the documented reply also has `min_score_threshold` and `filtered_count`);
 * `extract_memory { trajectory: [{ step, role, content, metadata? }], query, success_signal, async_mode, agent_id }`.
 * Each haystack is one `agent_id` (the server's multi-tenant isolation), each session one trajectory whose `query` is
 * the session's title, `success_signal` true (a conversation is not a task that failed: baselines/reasoningbank/README.md),
 * `async_mode` true (the server's default: the reply says "processing"; the method waits for the memories to show,
 * up to `ingestTimeoutMs`). The reply's items carry no unit ids, so the method's output is text (judged by answers).
 */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}
export interface ReplyMap {
  items: string;
  text: string;
  score?: string | undefined;
  ids?: string | undefined;
  time?: string | undefined;
}
export interface ToolMap {
  ingest: ToolCall;
  search: ToolCall & { reply: ReplyMap };
  reset?: ToolCall | undefined;
}

export const PRESETS: Record<'reasoningbank', ToolMap> = {
  reasoningbank: {
    ingest: {
      name: 'extract_memory',
      arguments: {
        trajectory: '{{trajectory}}',
        query: '{{session_title}}',
        success_signal: true,
        async_mode: true,
        agent_id: '{{namespace}}',
      },
    },
    search: {
      name: 'retrieve_memory',
      arguments: { query: '{{query}}', top_k: '{{k}}', agent_id: '{{namespace}}' },
      reply: { items: 'memories', text: 'content', score: 'score' },
    },
  },
};
