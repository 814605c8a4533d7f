// The lazy MemoryIndex: nothing is built until used, unit embeddings are computed once, query vectors memoised,
// keyword leaves out non-matching units, and topK breaks ties by position.
import { describe, expect, it } from 'vitest';
import type { Embedder, IndexSpec } from '../core/interfaces.ts';
import type { Session } from '../core/types.ts';
import { createMemoryIndex } from './memory-index.ts';
import { bagOfWordsVector } from '../llm/testing/fake-openai-server.ts';
import { topK } from './top-k.ts';

const AT = '2023-05-01T10:00:00Z';
const haystack: Session[] = [
  {
    id: 's1',
    at: AT,
    turns: [
      { id: 's1#1', sessionId: 's1', index: 0, role: 'user', text: 'I adopted a cat named Luna', at: AT },
      { id: 's1#2', sessionId: 's1', index: 1, role: 'assistant', text: 'Luna is a lovely name for a cat', at: AT },
      { id: 's1#3', sessionId: 's1', index: 2, role: 'user', text: 'My sister moved to Boston', at: AT },
    ],
  },
  {
    id: 's2',
    at: AT,
    turns: [{ id: 's2#1', sessionId: 's2', index: 0, role: 'user', text: 'I bought running shoes', at: AT }],
  },
];
const spec: IndexSpec = { granularity: 'turn', roles: ['user'], includeCaptions: true };

/** Deterministic bag-of-words embedder that records every call. */
function countingEmbedder(): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id: 'counting-bow',
    dim: 64,
    calls,
    embed(texts) {
      calls.push(texts);
      return Promise.resolve(
        texts.map((t) => {
          const v = bagOfWordsVector(t, 64);
          const n = Math.hypot(...v) || 1;
          return Float32Array.from(v, (x) => x / n);
        }),
      );
    },
  };
}

describe('createMemoryIndex', () => {
  it('builds units eagerly but BM25 and embeddings lazily, once', async () => {
    const embedder = countingEmbedder();
    const index = createMemoryIndex(haystack, spec, embedder);
    expect(index.units.map((u) => u.id)).toEqual(['s1#1', 's1#3', 's2#1']);
    expect(index.unit('s1#3')?.text).toBe('My sister moved to Boston');
    expect(index.unit('s1#2')).toBeUndefined();
    expect(index.built).toEqual({ bm25: false, embeddings: false });

    index.keyword('cat', 5);
    expect(index.built).toEqual({ bm25: true, embeddings: false });
    expect(embedder.calls).toHaveLength(0);

    const top = await index.semantic('Where does my sister live? Boston', 2);
    expect(top[0]?.unit.id).toBe('s1#3');
    await index.semantic('Where does my sister live? Boston', 2);
    await index.semanticScores('cat');
    // One call for the units, one per distinct query text (the first query and the units are embedded concurrently).
    expect(embedder.calls).toHaveLength(3);
    expect(embedder.calls).toContainEqual([
      'I adopted a cat named Luna',
      'My sister moved to Boston',
      'I bought running shoes',
    ]);
    expect(embedder.calls).toContainEqual(['Where does my sister live? Boston']);
    expect(embedder.calls.at(-1)).toEqual(['cat']);
    expect(await index.vectors()).toHaveLength(3);
  });

  it('keyword: BM25 best first, units sharing no term left out; keywordScores aligned with units', () => {
    const index = createMemoryIndex(haystack, spec, countingEmbedder(), { bm25: { tokenizer: 'default' } });
    const hits = index.keyword('What is the name of my cat Luna?', 10);
    expect(hits.map((h) => h.unit.id)).toEqual(['s1#1', 's1#3']); // 'cat' + 'luna' beat 'my'
    const scores = index.keywordScores('running shoes');
    expect(scores).toHaveLength(3);
    expect(scores[2]).toBeGreaterThan(0);
    expect([scores[0], scores[1]]).toEqual([0, 0]);
    expect(index.keyword('zebra', 5)).toEqual([]);
  });

  it('semantic scores are cosines in [-1, 1], aligned with units', async () => {
    const index = createMemoryIndex(haystack, spec, countingEmbedder());
    const s = await index.semanticScores('I adopted a cat named Luna');
    expect(s[0]).toBeCloseTo(1, 5);
    for (const x of s) expect(Math.abs(x)).toBeLessThanOrEqual(1 + 1e-6);
  });

  it('semantic scores equal the full dot product bit for bit, for sparse and dense query vectors', async () => {
    // Random finite vectors; queries with a few non-zero entries (the sparse path) and with all of them (the plain
    // loop), both with -0 entries. The reference is the loop over every entry, summed in a double from +0.
    const rng = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
    const next = rng(7);
    const dim = 97;
    const unitVectors = new Map<string, Float32Array>();
    const queries: Record<string, Float32Array> = {
      sparse: Float32Array.from({ length: dim }, (_, j) => (j % 13 === 0 ? next() : j % 17 === 0 ? -0 : 0)),
      dense: Float32Array.from({ length: dim }, (_, j) => (j === 5 ? -0 : next())),
    };
    const embedder: Embedder = {
      id: 'random',
      dim,
      embed: (texts) =>
        Promise.resolve(
          texts.map((t) => {
            if (queries[t]) return queries[t]!;
            if (!unitVectors.has(t))
              unitVectors.set(
                t,
                Float32Array.from({ length: dim }, () => next()),
              );
            return unitVectors.get(t)!;
          }),
        ),
    };
    const index = createMemoryIndex(haystack, spec, embedder);
    const vectors = await index.vectors();
    for (const [name, q] of Object.entries(queries)) {
      const got = await index.semanticScores(name);
      const want = vectors.map((v) => {
        let s = 0;
        for (let j = 0; j < dim; j++) s += q[j]! * v[j]!;
        return Math.fround(s);
      });
      expect([...got], name).toEqual(want);
    }
  });

  it('an empty haystack gives empty results', async () => {
    const index = createMemoryIndex([], spec, countingEmbedder());
    expect(index.keyword('cat', 3)).toEqual([]);
    expect(await index.semantic('cat', 3)).toEqual([]);
  });

  it('topK breaks ties by unit position and checks alignment', () => {
    const index = createMemoryIndex(haystack, spec, countingEmbedder());
    expect(topK([0.5, 0.9, 0.5], 3, index.units).map((s) => s.unit.id)).toEqual(['s1#3', 's1#1', 's2#1']);
    expect(() => topK([1], 1, index.units)).toThrow(/1 scores for 3 units/);
  });
});
