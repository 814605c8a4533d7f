// The QA parts end to end on real data (LongMemEval oracle + LoCoMo from ADAPTMR_DATA_DIR) against the loopback
// server: full-context retrieval → reader → judge/metrics. A second run with a fresh provider on the same cache
// makes zero HTTP calls and gives identical answers, verdicts, scores and accounting.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createFullContextMethod,
  FullContextOptionsSchema,
} from '../../../baselines/full-context/full-context-method.ts';
import type { CallRecord, Embedder, IndexSpec } from '../../core/interfaces.ts';
import type { Instance } from '../../core/types.ts';
import { loadDataset } from '../../data/load.ts';
import { createMemoryIndex } from '../../index/memory-index.ts';
import { createLlmProvider } from '../../llm/provider.ts';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { readAnswer } from './reader.ts';
import { loadBenchmark } from '../../run/benchmark-registry.ts';
import { TEST_DATA_DIR } from '../../../test/data-path.ts';

const dataDir = TEST_DATA_DIR;
const spec: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const noEmbedder: Embedder = { id: 'none', dim: 1, embed: () => Promise.reject(new Error('not used')) };
let server: FakeOpenAiServer;
let dir: string;
let instances: { protocol: 'longmemeval' | 'locomo'; inst: Instance }[] = [];

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    chat: (body) => {
      const prompt = body.messages.at(-1)?.content ?? '';
      if (prompt.includes('Answer yes or no only.')) return prompt.length % 2 === 0 ? 'yes' : 'No.';
      if (prompt.includes('"label"')) return '{"label": "CORRECT"}';
      return `Answer based on ${prompt.length} characters of history.`;
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-pipeline-'));
  const lme = await loadDataset(
    { name: 'longmemeval-oracle', questionIds: ['0862e8bf_abs', '01493427', '5e1b23de'] },
    dataDir,
  );
  const locomo = await loadDataset({ name: 'locomo', limit: 3 }, dataDir);
  instances = [
    ...lme.instances.map((inst) => ({ protocol: 'longmemeval' as const, inst })),
    ...locomo.instances.map((inst) => ({ protocol: 'locomo' as const, inst })),
  ];
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function runOnce() {
  const llm = createLlmProvider(
    {
      cache: { mode: 'read-write', dir },
      retryBaseMs: 1,
      prices: { 'reader-m': { inputPerMTok: 0.15, outputPerMTok: 0.6 } },
      roles: {
        reader: { baseURL: server.baseURL, model: 'reader-m' },
        judge: { baseURL: server.baseURL, model: 'judge-m', structuredOutput: 'json-object' },
      },
    },
    {},
  );
  const method = createFullContextMethod(FullContextOptionsSchema.parse({ maxContextTokens: 4000 }));
  const rows = [];
  for (const { protocol, inst } of instances) {
    const calls: CallRecord[] = [];
    const out = await method.run(inst.query, createMemoryIndex(inst.haystack, spec, noEmbedder), { seed: 1, calls });
    const read = await readAnswer(inst.query, out.retrieval, llm.forRole('reader'), { chainOfNote: false, calls });
    const scores = await (await loadBenchmark(protocol)).qa.score(
      {
        protocol,
        questionId: inst.query.id,
        nativeType: inst.gold.nativeType,
        question: inst.query.text,
        gold: inst.gold.answer,
        hypothesis: read.answer,
      },
      llm.forRole('judge'),
      { calls, repeats: 2 },
    );
    rows.push({
      id: inst.query.id,
      answer: read.answer,
      contextTokens: read.contextTokens,
      notes: out.retrieval.notes,
      scores,
      accounting: calls.map((c) => [c.stage, c.model, c.promptTokens, c.completionTokens, c.costUsd, c.error ?? null]),
      cached: calls.map((c) => c.cached),
    });
  }
  return { rows, stats: llm.stats() };
}

it('a second run makes zero calls and gives identical results', async () => {
  expect(instances).toHaveLength(6);
  const first = await runOnce();
  const sent = server.count('/v1/chat/completions');
  // 6 reader calls; LongMemEval: 3 × 2 judge runs; LoCoMo: 2 judge runs for each of categories 1–4
  expect(sent).toBeGreaterThanOrEqual(6 + 6);
  expect(first.rows.every((r) => r.cached.every((c) => !c))).toBe(true);
  expect(first.rows.some((r) => (r.notes as { truncated: boolean }).truncated)).toBe(true); // LoCoMo exceeds 4000 tokens
  for (const r of first.rows) expect(r.contextTokens).toBeLessThanOrEqual(4000);

  const second = await runOnce();
  expect(server.count('/v1/chat/completions')).toBe(sent);
  expect(second.stats.requests).toBe(0);
  expect(second.rows.map(({ cached: _c, ...r }) => r)).toEqual(first.rows.map(({ cached: _c, ...r }) => r));
  expect(second.rows.every((r) => r.cached.every((c) => c))).toBe(true);
});

it("renders the official json history byte for byte as Python's json.dumps (astral characters included)", async () => {
  const { pythonJsonDumps, renderContext } = await import('./reader.ts');
  const { createHash } = await import('node:crypto');
  // sha256 of '\n' + json.dumps(session turns without has_answer), computed with Python 3 from the oracle file;
  // 54026fce holds characters outside the BMP (written as surrogate-pair escapes).
  const {
    instances: [inst],
  } = await loadDataset({ name: 'longmemeval-oracle', questionIds: ['54026fce'] }, dataDir);
  if (!inst) throw new Error('question 54026fce missing');
  const session = inst.haystack[0]!;
  const dumped = `\n${pythonJsonDumps(session.turns.map((t) => ({ role: t.role, content: t.text })))}`;
  expect(createHash('sha256').update(dumped).digest('hex').slice(0, 16)).toBe('5f04e449e5809d57');
  expect(dumped).toMatch(/\\ud83[cdef]\\ud[c-f][0-9a-f]{2}/);

  const spec1: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
  const index = createMemoryIndex(inst.haystack, spec1, noEmbedder);
  const retrieval = { units: index.units.map((unit) => ({ unit, score: 1 })), noMemory: false, context: '' };
  const json = renderContext(retrieval, { withDates: true, historyFormat: 'json', haystack: inst.haystack });
  expect(json.startsWith('\n### Session 1:\nSession Date: ')).toBe(true);
  expect(json).toContain(`\nSession Content:\n${dumped}\n`);
  const nl = renderContext(retrieval, { withDates: true, historyFormat: 'nl', haystack: inst.haystack });
  expect(nl).toContain(`\nSession Content:\n\n\nuser: ${session.turns[0]!.text.trim()}`);
  expect(() => renderContext(retrieval, { withDates: true, historyFormat: 'json' })).toThrow(/haystack/);
});
