// The memory index and the bm25 method share one BM25 index when their settings agree (and only then), and the
// shared index ranks exactly as a separately built one.
import { describe, expect, it } from 'vitest';
import { createBm25Method } from '../../baselines/bm25/bm25-method.ts';
import { Bm25Index } from './bm25.ts';
import { bm25Settings, sharedBm25 } from './bm25-shared.ts';
import { createMemoryIndex } from './memory-index.ts';
import type { Embedder } from '../core/interfaces.ts';
import type { Session } from '../core/types.ts';

const noEmbedder: Embedder = { id: 'none', dim: 1, embed: () => Promise.reject(new Error('not used')) };
const haystack: Session[] = [
  { id: 's1', at: '2023-05-01T10:00:00Z', turns: [{ role: 'user', text: 'I moved to Hangzhou last spring' }] },
  { id: 's2', at: '2023-06-01T10:00:00Z', turns: [{ role: 'user', text: 'My cat is called Luna; 我的猫叫小白' }] },
  { id: 's3', at: '2023-07-01T10:00:00Z', turns: [{ role: 'user', text: 'Running shoes and moving boxes' }] },
] as unknown as Session[];

describe('sharedBm25', () => {
  it('gives the memory index and an equal-settings request the same object, other settings their own', () => {
    const mi = createMemoryIndex(
      haystack,
      { granularity: 'session', roles: ['user'], includeCaptions: false } as never,
      noEmbedder,
    );
    mi.keywordScores('moved');
    const same = sharedBm25(mi.units, bm25Settings({ k1: 1.5 }));
    expect(sharedBm25(mi.units, bm25Settings({}))).toBe(same);
    // The index's own keyword search built it: no second index over the same units.
    expect((mi as unknown as { bm25: Bm25Index }).bm25).toBe(same);
    const other = sharedBm25(mi.units, bm25Settings({ tokenizer: 'whitespace' }));
    expect(other).not.toBe(same);
    expect([...mi.keywordScores('moving 猫')]).toEqual([...same.scores('moving 猫')]);
    expect([...same.scores('moving 猫')]).toEqual([...new Bm25Index(mi.units.map((u) => u.text)).scores('moving 猫')]);
  });

  it('the bm25 method ranks as before on a shared index', async () => {
    const mi = createMemoryIndex(
      haystack,
      { granularity: 'session', roles: ['user'], includeCaptions: false } as never,
      noEmbedder,
    );
    mi.keywordScores('');
    const out = await createBm25Method(2, {}).run(
      { id: 'q', text: 'where did I move', askedAt: '2023-08-01T00:00:00Z' },
      mi,
      { seed: 1, calls: [] },
    );
    const fresh = new Bm25Index(mi.units.map((u) => u.text)).scores('where did I move');
    expect(out.retrieval.units.map((u) => u.score)).toEqual([...fresh].sort((a, b) => b - a).slice(0, 2));
  });
});
