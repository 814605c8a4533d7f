// reasoningbank end to end: min-score filtering with the count of dropped items, semantic dedup, voting and LLM
// merge on hand-made vectors; against the loopback LLM server on two LoCoMo conversations — extraction once per
// conversation and a rerun from the cache with zero calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder, IndexSpec } from '../../src/core/interfaces.ts';
import { NO_MEMORY_LINE } from '../../src/core/render.ts';
import type { Session } from '../../src/core/types.ts';
import { createMemoryIndex } from '../../src/index/memory-index.ts';
import type { FakeOpenAiServer } from '../../src/llm/testing/fake-openai-server.ts';
import {
  locomoConversations,
  runAll,
  seedProvider,
  startSeedServer,
  tableEmbedder,
  tempDir,
} from '../testing/seed-fixtures.ts';
import { createReasoningBankMethod, ReasoningBankOptionsSchema } from './reasoningbank-method.ts';

const USER_SESSIONS: IndexSpec = { granularity: 'session', roles: ['user'], includeCaptions: false };
const SESSION: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const ASKED = '2023-09-01T00:00:00Z';
const ctxOf = (k: number, llm = false, index = USER_SESSIONS) => ({
  id: 'rb',
  index,
  k,
  seed: 1,
  runKey: 'test',
  llmRoles: llm ? (['strategy'] as const) : [],
});

function sessions(texts: string[]): Session[] {
  return texts.map((text, i) => {
    const at = `2023-0${i + 1}-10T10:00:00Z`;
    return {
      id: `S${i + 1}`,
      at,
      turns: [{ id: `S${i + 1}#1`, sessionId: `S${i + 1}`, index: 0, role: 'user', text, at }],
    };
  });
}

type Notes = { filteredCount: number; bankSize: number; duplicatesSkipped: number; merges: number };
const notes = (o: { retrieval: { notes?: Record<string, unknown> } }) => o.retrieval.notes as Notes;

describe('reasoningbank offline', () => {
  const s = Math.sqrt(1 - 0.81);
  const embedder = tableEmbedder({
    alpha: [0.9, s, 0],
    beta: [0.8, 0, 0.6],
    gamma: [0.1, 0, Math.sqrt(0.99)],
    q: [1, 0, 0],
  });
  const index = createMemoryIndex(sessions(['alpha', 'beta', 'gamma']), USER_SESSIONS, embedder);
  const ask = (o: object, k: number) =>
    createReasoningBankMethod(ReasoningBankOptionsSchema.parse(o), ctxOf(k)).run(
      { id: 'q', text: 'q', askedAt: ASKED },
      index,
      { seed: 1, calls: [] },
    );

  it('drops items under min_score_threshold from the top k and counts them', async () => {
    const out = await ask({ strategy: 'cosine' }, 3); // cosines 0.9, 0.8, 0.1
    expect(out.retrieval.units.map((u) => [u.unit.id, u.score])).toEqual([['S1', expect.closeTo(0.9, 6)]]);
    expect(notes(out).filteredCount).toBe(2);
    expect(notes(await ask({ strategy: 'cosine' }, 1)).filteredCount).toBe(0);
    expect(out.retrieval.context).toContain('**记忆 1 [✓ 成功经验] - alpha** (2023/01/10 (Tue) 10:00)');
  });

  it('gives the reader the no-memory line when every item is under the threshold (the hybrid default here)', async () => {
    const out = await ask({}, 3); // hybrid: 0.6·0.9 + 0.25 − recency penalty < 0.85
    expect(out.retrieval).toMatchObject({ units: [], noMemory: true, context: NO_MEMORY_LINE });
    expect(notes(out).filteredCount).toBe(3);
  });

  it('skips an item whose cosine score reaches 0.90 (dedup); the hybrid score of a new item never does', async () => {
    const dup = tableEmbedder({ one: [1, 0], two: [1, 0], q: [1, 0] });
    const idx = createMemoryIndex(sessions(['one', 'two']), USER_SESSIONS, dup);
    const run = (o: object) =>
      createReasoningBankMethod(ReasoningBankOptionsSchema.parse(o), ctxOf(2)).run(
        { id: 'q', text: 'q', askedAt: ASKED },
        idx,
        { seed: 1, calls: [] },
      );
    expect(notes(await run({ strategy: 'cosine' }))).toMatchObject({ bankSize: 1, duplicatesSkipped: 1 });
    expect(notes(await run({ strategy: 'hybrid' }))).toMatchObject({ bankSize: 2, duplicatesSkipped: 0 });
  });

  // Pairwise cosine 1/(1+t²) = 0.8696: similar enough to merge (≥ 0.85), not duplicates (< 0.90).
  const t = Math.sqrt(0.15);
  const vec = (i: number) => [1, ...[1, 2, 3, 4].map((j) => (j === i ? t : 0))];

  it('merges an item with 3 similar ones (voting offline: the newest stands for the group and keeps its units)', async () => {
    const e = tableEmbedder({ w: vec(1), x: vec(2), y: vec(3), z: vec(4), q: [1, 0, 0, 0, 0] });
    const idx = createMemoryIndex(sessions(['w', 'x', 'y', 'z']), USER_SESSIONS, e);
    const out = await createReasoningBankMethod(
      ReasoningBankOptionsSchema.parse({ strategy: 'cosine', minScoreThreshold: 0 }),
      ctxOf(4),
    ).run({ id: 'q', text: 'q', askedAt: ASKED }, idx, { seed: 1, calls: [] });
    expect(notes(out)).toMatchObject({ bankSize: 1, merges: 1, duplicatesSkipped: 0 });
    expect(out.retrieval.units.map((u) => u.unit.id)).toEqual(['S1', 'S2', 'S3', 'S4']);
    expect(out.retrieval.context).toContain('- z**');
  });

  describe('with an LLM', () => {
    let server: FakeOpenAiServer;
    beforeAll(async () => {
      server = await startSeedServer();
    });
    afterAll(async () => {
      await server.close();
    });

    it('merges with the LLM merge prompt; the merged item is embedded from its query', async () => {
      const item = (x: string) => `对话要点  回忆对话内容 ${x}`;
      const table: Record<string, number[]> = { q: [1, 0, 0, 0, 0], '<通用场景：对话>': [1, 0, 0, 0, 0] };
      ['w', 'x', 'y', 'z'].forEach((u, i) => {
        table[u] = vec(i + 1);
        table[item(u)] = vec(i + 1);
      });
      const idx = createMemoryIndex(sessions(['w', 'x', 'y', 'z']), USER_SESSIONS, tableEmbedder(table) as Embedder);
      const ctx = {
        seed: 1,
        calls: [] as import('../../src/core/calls.ts').CallRecord[],
        llm: seedProvider(server, tempDir()),
      };
      const out = await createReasoningBankMethod(
        ReasoningBankOptionsSchema.parse({ strategy: 'cosine', minScoreThreshold: 0 }),
        ctxOf(4, true),
      ).run({ id: 'q', text: 'q', askedAt: ASKED }, idx, ctx);
      expect(notes(out)).toMatchObject({ bankSize: 1, merges: 1 });
      expect(ctx.calls.map((c) => c.stage).sort()).toEqual([
        'index:extract',
        'index:extract',
        'index:extract',
        'index:extract',
        'index:merge',
      ]);
      expect(out.retrieval.context).toContain('- 合并**');
      expect(out.retrieval.units.map((u) => [u.unit.id, u.score])).toEqual(
        ['S1', 'S2', 'S3', 'S4'].map((id) => [id, expect.closeTo(1, 6)]),
      );
    });

    it('extracts once per LoCoMo conversation and reruns from the cache with zero calls', async () => {
      const convs = await locomoConversations(SESSION, 2, 3);
      const cache = tempDir();
      const options = ReasoningBankOptionsSchema.parse({ strategy: 'cosine', minScoreThreshold: 0.2 });
      const before = server.requests.length;
      const first = await runAll(
        createReasoningBankMethod(options, ctxOf(5, true, SESSION)),
        convs,
        seedProvider(server, cache),
      );
      const requests = server.requests.length - before;
      for (const c of convs) {
        const rows = first.filter((r) => r.haystackId === c.haystackId);
        expect(rows.filter((r) => r.calls.length > 0).length).toBe(1);
        expect(rows.flatMap((r) => r.calls).filter((x) => x.stage === 'index:extract').length).toBe(
          c.index.units.length,
        ); // one per session
      }
      expect(first.flatMap((r) => r.calls).filter((x) => !x.cached).length).toBe(requests);
      expect(first.some((r) => r.out.retrieval.units.length > 0)).toBe(true);
      const again = await runAll(
        createReasoningBankMethod(options, ctxOf(5, true, SESSION)),
        convs,
        seedProvider(server, cache),
      );
      expect(server.requests.length - before).toBe(requests);
      expect(again.map((r) => r.out.retrieval.context)).toEqual(first.map((r) => r.out.retrieval.context));
    });
  });
});
