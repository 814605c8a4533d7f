/**
 * The mcp-memory mapping by hand-made cases: templates fill typed values, a template is checked against a tool's
 * inputSchema with one line naming tool and field (unknown argument, wrong type, required argument unmapped, unknown
 * variable), the isolation rule refuses a mapping without `{{namespace}}`, search replies become hits (a memory
 * without text is an error naming the path; Chinese text kept), and a preset is overridden role by role.
 */
import { describe, expect, it } from 'vitest';
import { checkMapping, toHits } from './mcp-api.ts';
import { McpMemoryOptionsSchema, resolveTools } from './options.ts';
import { PRESETS } from './presets.ts';
import { checkTemplate, fill, SEARCH_VARIABLES } from './template.ts';

const RETRIEVE = {
  type: 'object',
  properties: { query: { type: 'string' }, top_k: { type: 'integer' }, agent_id: { type: 'string' } },
  required: ['query'],
};

describe('mcp-memory templates', () => {
  it('fills a whole placeholder with its typed value and text placeholders as text', () => {
    const t = { query: '{{query}}', top_k: '{{k}}', note: 'ns={{namespace}}', nested: ['{{k}}'] };
    expect(fill(t, { query: '我的猫叫什么？', k: 5, namespace: 'n1' })).toEqual({
      query: '我的猫叫什么？',
      top_k: 5,
      note: 'ns=n1',
      nested: [5],
    });
  });

  it('accepts the reasoningbank search template against the ReasoningBank schema', () => {
    expect(() =>
      checkTemplate('search', 'retrieve_memory', PRESETS.reasoningbank.search.arguments, RETRIEVE, SEARCH_VARIABLES),
    ).not.toThrow();
  });

  it('names the tool and the field of each mismatch in one line', () => {
    const check = (t: Record<string, unknown>) => () =>
      checkTemplate('search', 'retrieve_memory', t, RETRIEVE, SEARCH_VARIABLES);
    expect(check({ query: '{{query}}', limit: '{{k}}' })).toThrow(
      'mcp-memory: tool retrieve_memory (tools.search): argument "limit" is not in its inputSchema (it takes: query, top_k, agent_id)',
    );
    expect(check({ query: '{{query}}', top_k: 'five' })).toThrow(
      /argument "top_k" would be string; its inputSchema says "integer"/,
    );
    expect(check({ top_k: '{{k}}' })).toThrow(/required argument "query" is not mapped/);
    expect(check({ query: '{{trajectory}}' })).toThrow(/unknown variable \{\{trajectory\}\}/);
  });

  it('refuses a mapping that does not isolate haystacks', () => {
    const listed = [
      { name: 'retrieve_memory', inputSchema: RETRIEVE },
      {
        name: 'extract_memory',
        inputSchema: { type: 'object', properties: { trajectory: { type: 'array' }, query: { type: 'string' } } },
      },
    ];
    const tools = {
      ingest: { name: 'extract_memory', arguments: { trajectory: '{{trajectory}}', query: '{{session_title}}' } },
      search: {
        name: 'retrieve_memory',
        arguments: { query: '{{query}}' },
        reply: { items: 'memories', text: 'content' },
      },
    };
    expect(() => checkMapping(tools, listed)).toThrow(
      /refusing to run: tools.ingest and tools.search must both pass \{\{namespace\}\}/,
    );
    expect(() => checkMapping({ ...tools, search: { ...tools.search, name: 'find' } }, listed)).toThrow(
      'mcp-memory: the server has no tool find (tools.search); it has: retrieve_memory, extract_memory',
    );
  });
});

describe('mcp-memory replies', () => {
  const reply = { items: 'memories', text: 'content', score: 'score', ids: 'unit_ids', time: 'timestamp' };
  it('turns memories into hits with ids, times and Chinese text (all of them: the method cuts to k)', () => {
    const body = {
      status: 'success',
      memories: [
        { content: '我在学习大提琴', score: 2.5, unit_ids: ['s1#1'], timestamp: '2023-05-20T18:15:00+08:00' },
        { content: 'Miso is a cat', score: 1.2, unit_ids: ['s0#1'] },
        { content: 'third', score: 0.5 },
      ],
    };
    expect(toHits(body, reply, 'retrieve_memory')).toHaveLength(3);
    expect(toHits(body, reply, 'retrieve_memory').slice(0, 2)).toEqual([
      { text: '我在学习大提琴', score: 2.5, at: '2023-05-20T10:15:00.000Z', sources: ['s1#1'] },
      { text: 'Miso is a cat', score: 1.2, sources: ['s0#1'] },
    ]);
  });
  it('names a memory without text and a reply without the memories array', () => {
    expect(() => toHits({ memories: [{ title: 't' }] }, reply, 'retrieve_memory')).toThrow(
      'mcp-memory: tool retrieve_memory: memory 0 of the reply has no text at "content" (tools.search.reply.text)',
    );
    expect(() => toHits({ results: [] }, reply, 'retrieve_memory')).toThrow(/no array at "memories"/);
  });
  it('ranks by position when the reply has no scores', () => {
    const hits = toHits(
      { memories: [{ content: 'a' }, { content: 'b' }] },
      { items: 'memories', text: 'content' },
      't',
    );
    expect(hits.map((h) => h.score)).toEqual([1, 0.5]);
  });
});

describe('mcp-memory options', () => {
  it('needs a command for stdio and a url for http', () => {
    expect(McpMemoryOptionsSchema.safeParse({ transport: 'stdio', preset: 'reasoningbank' }).success).toBe(false);
    expect(McpMemoryOptionsSchema.safeParse({ transport: 'http', preset: 'reasoningbank' }).success).toBe(false);
    expect(McpMemoryOptionsSchema.safeParse({ command: 'rb-server', preset: 'reasoningbank' }).success).toBe(true);
  });
  it('overrides a preset role by role and requires ingest and search', () => {
    const o = McpMemoryOptionsSchema.parse({
      url: 'http://127.0.0.1:1/mcp',
      preset: 'reasoningbank',
      tools: { search: { name: 'search', arguments: { q: '{{query}}' }, reply: { text: 'text' } } },
    });
    const t = resolveTools(o);
    expect(t.ingest).toEqual(PRESETS.reasoningbank.ingest);
    expect(t.search.name).toBe('search');
    expect(() => resolveTools(McpMemoryOptionsSchema.parse({ url: 'http://127.0.0.1:1/mcp' }))).toThrow(
      'mcp-memory: tools.ingest is not declared (declare it, or set preset)',
    );
  });
});
