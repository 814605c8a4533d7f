// Update strategy: two near-identical units about one attribute → the newest is kept and annotated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx, IndexSpec } from '../core/interfaces.ts';
import type { Session } from '../core/types.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { createLlmProvider } from '../llm/index.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { frozenQuery, offlineCtx } from './testing/fixtures.ts';
import { createUpdate, leaderClusters, MAX_PAIRS, pairwiseCosines, UpdateOptionsSchema } from './update.ts';

const SPEC: IndexSpec = { granularity: 'session', roles: ['user'], includeCaptions: true };
const s = (id: string, at: string, text: string): Session => ({
  id,
  at,
  turns: [{ id: `${id}#1`, sessionId: id, index: 0, role: 'user', text, at }],
});
const HAYSTACK = [
  s('old', '2023-01-05T10:00:00Z', 'My favorite color is blue.'),
  s('cat', '2023-02-01T10:00:00Z', 'I adopted a kitten from the shelter last weekend.'),
  s('new', '2023-04-20T10:00:00Z', 'My favorite color is green.'),
];
const index = createMemoryIndex(HAYSTACK, SPEC, createWinkSifEmbedder());
const q = frozenQuery('What is my favorite color now?');

let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer({ chat: () => 'NO' });
});
afterAll(async () => server.close());

describe('update strategy', () => {
  it('the two colour units are one cluster at the plan threshold 0.85', async () => {
    const v = await index.vectors();
    expect(leaderClusters([v[0]!, v[2]!, v[1]!], 0.85)).toEqual([[0, 1], [2]]);
  });

  it('offline (newer wins): keeps the newest, drops the older, annotates (plan rule: cosine ≥ 0.85, no padding)', async () => {
    const r = await createUpdate(UpdateOptionsSchema.parse({ similarity: 'cosine', padToK: false })).retrieve(
      q,
      index,
      5,
      offlineCtx(),
    );
    expect(r.units.map((u) => u.unit.id)).toEqual(['new', 'cat']);
    expect(r.notes).toMatchObject({ merged: [{ kept: 'new', superseded: ['old'], decidedBy: 'newer-wins' }] });
    expect(r.context).toContain(
      'My favorite color is green. (updated on 2023-04-20; previously [2023-01-05]: My favorite color is blue.)',
    );
    // The merged unit carries its cluster's best score, so the list stays best first.
    expect(r.units[0]!.score).toBeGreaterThanOrEqual(r.units[1]!.score);
  });

  it('padToK: the superseded unit follows its current value (default), or every resolved unit (superseded: end)', async () => {
    const r = await createUpdate(UpdateOptionsSchema.parse({ similarity: 'cosine' })).retrieve(
      q,
      index,
      5,
      offlineCtx(),
    );
    expect(r.units.map((u) => u.unit.id)).toEqual(['new', 'old', 'cat']);
    expect(r.context).toContain('My favorite color is blue. (superseded on 2023-04-20)');
    const end = await createUpdate(UpdateOptionsSchema.parse({ similarity: 'cosine', superseded: 'end' })).retrieve(
      q,
      index,
      5,
      offlineCtx(),
    );
    expect(end.units.map((u) => u.unit.id)).toEqual(['new', 'cat', 'old']);
  });

  it('topic similarity (default): a shared question entity and a question about the current value merge the pair; the kitten stays apart', async () => {
    const r = await createUpdate(UpdateOptionsSchema.parse({})).retrieve(q, index, 5, offlineCtx());
    expect(r.notes).toMatchObject({
      similarity: 'topic',
      merged: [{ kept: 'new', superseded: ['old'], reason: 'entity+change' }],
    });
    expect(r.units.map((u) => u.unit.id)).toEqual(['new', 'old', 'cat']);
    // Without "now" and without a change cue in the newer memory, two values are not taken for an update.
    const plain = await createUpdate(UpdateOptionsSchema.parse({})).retrieve(
      frozenQuery('What is my favorite color?'),
      index,
      5,
      offlineCtx(),
    );
    expect(plain.notes).toMatchObject({ merged: [] });
  });

  it("quantile similarity (default): merges only the haystack's most similar pairs", async () => {
    const filler = [
      'We went hiking in the mountains and saw a waterfall.',
      'The quarterly budget report is due on Friday.',
      'I baked sourdough bread with rye flour.',
      'My brother plays the cello in an orchestra.',
      'The train to Boston was delayed by an hour.',
      'I am reading a novel about the French revolution.',
      'Our team won the volleyball match on Sunday.',
      'The dentist said I need a filling.',
    ].map((t, i) => s(`f${i}`, `2023-03-0${i + 1}T10:00:00Z`, t));
    const big = createMemoryIndex([...HAYSTACK, ...filler], SPEC, createWinkSifEmbedder());
    const r = await createUpdate(UpdateOptionsSchema.parse({ similarity: 'quantile', padToK: false })).retrieve(
      q,
      big,
      5,
      offlineCtx(),
    );
    expect(r.notes).toMatchObject({ similarity: 'quantile', merged: [{ kept: 'new', superseded: ['old'] }] });
    expect(r.units).toHaveLength(5);
  });

  it('llm mode: a NO from the update check keeps both units, unannotated', async () => {
    const llm = createLlmProvider(
      { cache: { mode: 'off' }, maxRetries: 0, roles: { strategy: { baseURL: server.baseURL, model: 'fake' } } },
      {},
    );
    const ctx: Ctx = { seed: 1, calls: [], llm };
    const r = await createUpdate(UpdateOptionsSchema.parse({ mode: 'llm', similarity: 'cosine' })).retrieve(
      q,
      index,
      5,
      ctx,
    );
    expect(new Set(r.units.map((u) => u.unit.id))).toEqual(new Set(['new', 'old', 'cat']));
    expect(r.context).not.toContain('updated on');
    expect(ctx.calls.map((c) => c.stage)).toEqual(['strategy.update.check']);
  });
});

describe('pairwiseCosines', () => {
  it('is exact and sorted for small haystacks, a deterministic sample above MAX_PAIRS', () => {
    const unit = (a: number) => new Float32Array([Math.cos(a), Math.sin(a)]);
    const exact = pairwiseCosines([unit(0), unit(Math.PI / 2), unit(Math.PI)]);
    expect([...exact].map((x) => Math.round(x * 1e6) / 1e6)).toEqual([-1, 0, 0]);
    const many = Array.from({ length: 100 }, (_, i) => unit(i / 10)); // 4,950 pairs > 1,000
    const a = pairwiseCosines(many, 1000);
    expect(a.length).toBe(1000);
    expect(pairwiseCosines([...many], 1000)).toEqual(a); // same sample every time
    expect(pairwiseCosines(many).length).toBe(4950);
    expect(MAX_PAIRS).toBe(1_000_000);
  });
});
