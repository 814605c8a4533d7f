// rago's offline store on a haystack whose sessions are not in time order (as 210 of LongMemEval S's 499 are): the
// memories come in time order, and their keyword scores are the index's shared BM25 read through that permutation —
// equal to a BM25 built over the memories themselves, without building one.
import { describe, expect, it } from 'vitest';
import type { IndexSpec } from '../../src/core/interfaces.ts';
import { Bm25Index } from '../../src/index/bm25.ts';
import { bm25Settings, sharedBm25 } from '../../src/index/bm25-shared.ts';
import { createMemoryIndex } from '../../src/index/memory-index.ts';
import { PLAN_HAYSTACK } from '../../src/strategies/testing/fixtures.ts';
import { hashEmbedder } from '../testing/seed-fixtures.ts';
import { buildStore } from './store.ts';

const SESSION: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };

describe('rago offline store', () => {
  it('ranks keywords with the shared BM25 through the time-order permutation when the haystack is out of order', async () => {
    const shuffled = [
      PLAN_HAYSTACK[3]!,
      PLAN_HAYSTACK[0]!,
      ...PLAN_HAYSTACK.slice(4).reverse(),
      PLAN_HAYSTACK[2]!,
      PLAN_HAYSTACK[1]!,
    ];
    const index = createMemoryIndex(shuffled, SESSION, hashEmbedder);
    const store = await buildStore(
      index,
      { seed: 1, calls: [] },
      { role: undefined, temperature: 0.3, maxTokens: 1000 },
    );
    const order = store.memories.map((m) => m.unitIds[0]);
    expect(order).not.toEqual(index.units.map((u) => u.id)); // memories in time order, units in haystack order
    expect(store.keyword).not.toBeInstanceOf(Bm25Index);
    const own = new Bm25Index(store.memories.map((m) => m.content));
    const shared = sharedBm25(index.units, bm25Settings({}));
    for (const q of ['What is my cat named?', 'Where do I live in Beijing?', 'job Hangzhou', '我的猫叫什么名字？']) {
      const got = Array.from(store.keyword!.scores(q));
      const want = Array.from(own.scores(q));
      got.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 12));
      const byUnit = shared.scores(q);
      got.forEach((v, i) => expect(v).toBe(byUnit[index.units.findIndex((u) => u.id === order[i])]));
    }
  });
});
