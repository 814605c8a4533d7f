/**
 * The LLM baselines (longmemeval-rag, a-mem, rae) through the runner against the loopback OpenAI-compatible server,
 * on the first LoCoMo conversation (session units): memorising calls (`index:*`) are made for one question per
 * conversation and stored apart from answering calls (`query:*`); a rerun into a new results file makes no request;
 * the offline variant is stored `degraded: offline`, the LLM variants are not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import { useTestData } from '../../test/data-path.ts';
import { queryFile } from '../store/testing/query-file.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-baselines-llm-'));
let server: FakeOpenAiServer;

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    chat: (body) => {
      const p = body.messages.map((m) => m.content).join('\n');
      if (p.includes('Relevant Date Range')) return 'N/A';
      if (p.includes('Personal facts about the user with dates'))
        return '[{"date": "2023/05/08", "event": "went to a support group"}]';
      if (p.includes('Personal facts about the user')) return '["The user went to a support group."]';
      if (p.includes('Generate a structured analysis'))
        return '{"keywords": ["support group"], "context": "Personal life.", "tags": ["life"]}';
      if (p.includes('memory evolution agent'))
        return '{"should_evolve": true, "actions": ["strengthen"], "suggested_connections": ["0"], "tags_to_update": ["life"], "new_context_neighborhood": [], "new_tags_neighborhood": []}';
      if (p.includes('Rewrite the question')) return '{"queries": ["support group", "LGBTQ"]}';
      if (p.startsWith('Rank the memories')) return '[2, 1]';
      if (p.includes('Summarize what they say')) return 'The user went to a support group on 2023/05/07.';
      return 'unexpected prompt';
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const yaml = (cache: string): string => `
name: baselines-llm-loopback
datasets:
  - name: locomo
    limit: 3
methods:
  - { id: lmrag, method: longmemeval-rag, index: { granularity: session }, k: 5 }
  - { id: amem, method: a-mem, index: { granularity: session }, k: 5 }
  - { id: rae, method: rae, index: { granularity: session }, k: 5 }
  - { id: rae-offline, method: rae, index: { granularity: session }, k: 5, options: { mode: offline } }
metrics: { ks: [5] }
llm:
  cache: { mode: read-write, dir: ${cache} }
  maxRetries: 0
  roles:
    strategy: { baseURL: ${server.baseURL}, model: fake-strategy }
`;

describe('LLM baselines through the runner', () => {
  it('memorise once per conversation, account index:* apart from query:*, and rerun for free', async () => {
    const exp = parseExperiment(yaml(join(dir, 'cache')), 'loopback.yaml');
    const first = join(dir, 'first.duckdb');
    const s1 = await runExperiment(exp, { out: first, progress: false, log: () => {} });
    expect(s1.errors).toBe(0);
    const paid = server.count('/v1/chat/completions');

    // index:* calls belong to exactly one question per method (the three questions share one conversation).
    const memorising = await queryFile<{ method: string; questions: number; calls: number }>(
      first,
      `select method, count(distinct question_id) questions, count(*) calls from llm_calls where stage like 'index:%' group by method order by method`,
    );
    expect(memorising.map((r) => [r.method, r.questions])).toEqual([
      ['amem', 1],
      ['lmrag', 1],
    ]);
    const stages = await queryFile<{ method: string; stage: string; n: number }>(
      first,
      `select method, stage, count(*) n from llm_calls group by all order by all`,
    );
    const n = (method: string, stage: string): number =>
      stages.find((s) => s.method === method && s.stage === stage)?.n ?? 0;
    expect(n('amem', 'index:evolve')).toBe(n('amem', 'index:note') - 1);
    expect(n('lmrag', 'index:userfact')).toBe(n('lmrag', 'index:events')); // session values: one of each per session
    expect(n('lmrag', 'query:time-range')).toBe(3);
    expect(n('rae', 'query:rewrite')).toBe(3);
    expect(stages.some((s) => s.method === 'rae-offline')).toBe(false);

    const degraded = await queryFile<{ method: string; degraded: string | null }>(
      first,
      `select method, degraded from methods order by method`,
    );
    expect(degraded).toEqual([
      { method: 'amem', degraded: null },
      { method: 'lmrag', degraded: null },
      { method: 'rae', degraded: null },
      { method: 'rae-offline', degraded: 'offline' },
    ]);

    const second = join(dir, 'second.duckdb');
    const s2 = await runExperiment(exp, { out: second, progress: false, log: () => {} });
    expect(s2.errors).toBe(0);
    expect(server.count('/v1/chat/completions')).toBe(paid);
    const cached = await queryFile<{ n: number; hits: number }>(
      second,
      `select count(*) n, sum(cached::int) hits from llm_calls`,
    );
    expect(cached[0]!.hits).toBe(cached[0]!.n);
    const ids = `select method, question_id, unit_ids from retrievals order by all`;
    expect(await queryFile(second, ids)).toEqual(await queryFile(first, ids));
  }, 120_000);
});
