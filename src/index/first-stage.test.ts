// First-stage views: BM25 ranks every unit as the `bm25` baseline does; hybrid is reciprocal-rank fusion with k = 60
// (checked against ranks worked out by hand); the abstention decision still reads cosines; `embedding` is the index.
import { describe, expect, it } from 'vitest';
import type { Embedder, IndexSpec } from '../core/interfaces.ts';
import type { Session } from '../core/types.ts';
import { createBm25Method } from '../../baselines/bm25/bm25-method.ts';
import { createStrategyMethod } from '../routing/strategy-method.ts';
import { createMemoryIndex } from './memory-index.ts';
import { embeddingIndexOf, hybridScores, withFirstStage } from './first-stage.ts';

const AT = '2023-05-01T10:00:00Z';
// A fifth unit without "Boston", so BM25's idf of "Boston" (2 of 5 units) is positive (2 of 4 would give idf 0).
const texts = [
  'I adopted a cat named Luna',
  'My sister moved to Boston',
  'I bought running shoes',
  'The cat chased a mouse near Boston',
  'We watched a film',
];
const haystack: Session[] = [
  {
    id: 's1',
    at: AT,
    turns: texts.map((text, i) => ({
      id: `s1#${i + 1}`,
      sessionId: 's1',
      index: i,
      role: 'user' as const,
      text,
      at: AT,
    })),
  },
];
const spec: IndexSpec = { granularity: 'turn', roles: ['user'], includeCaptions: true };
// Cosines with the query are set by hand: B 0.9, C 0.5, E 0.3, A 0.2, D 0.1 (unit vectors [c, √(1 − c²)], query [1, 0]).
const cos: Record<string, number> = {
  [texts[0]!]: 0.2,
  [texts[1]!]: 0.9,
  [texts[2]!]: 0.5,
  [texts[3]!]: 0.1,
  [texts[4]!]: 0.3,
};
const embedder: Embedder = {
  id: 'fixed',
  dim: 2,
  embed: (ts) =>
    Promise.resolve(
      ts.map((t) => {
        const c = cos[t];
        return c === undefined ? Float32Array.from([1, 0]) : Float32Array.from([c, Math.sqrt(1 - c * c)]);
      }),
    ),
};
const ids = (units: readonly { unit: { id: string } }[]): string[] => units.map((u) => u.unit.id);

describe('first-stage views', () => {
  it('embedding is the index itself; a view remembers its index', () => {
    const index = createMemoryIndex(haystack, spec, embedder);
    expect(withFirstStage(index, 'embedding')).toBe(index);
    const view = withFirstStage(index, 'bm25');
    expect(withFirstStage(index, 'bm25')).toBe(view);
    expect(embeddingIndexOf(view)).toBe(index);
    expect(withFirstStage(view, 'embedding')).toBe(index);
  });

  it('bm25 ranks every unit as the bm25 baseline does (matches first, then the rest in unit order)', async () => {
    const index = createMemoryIndex(haystack, spec, embedder);
    const view = withFirstStage(index, 'bm25');
    // "Boston": the shorter turn (B) scores higher than D; A, C and E share no term (score 0), in unit order.
    expect(ids(await view.semantic('Boston', 5))).toEqual(['s1#2', 's1#4', 's1#1', 's1#3', 's1#5']);
    const baseline = await createBm25Method(5, {}).run({ id: 'q', text: 'Boston', askedAt: AT }, index, {
      seed: 1,
      calls: [],
    });
    expect(ids(await view.semantic('Boston', 5))).toEqual(ids(baseline.retrieval.units));
    expect(Array.from(await view.semanticScores('Boston'))).toEqual(
      Array.from(index.keywordScores('Boston'), Math.fround),
    );
  });

  it('hybrid is RRF with k = 60 over the cosine ranks of every unit and the BM25 ranks of the matching units', async () => {
    const index = createMemoryIndex(haystack, spec, embedder);
    // cosine ranks: B 1, C 2, E 3, A 4, D 5; BM25 ranks ("Boston"): B 1, D 2.
    const expected = [1 / 64, 1 / 61 + 1 / 61, 1 / 62, 1 / 65 + 1 / 62, 1 / 63];
    const scores = await hybridScores(index, 'Boston');
    expected.forEach((e, i) => expect(scores[i]).toBeCloseTo(e, 7));
    expect(ids(await withFirstStage(index, 'hybrid').semantic('Boston', 5))).toEqual([
      's1#2',
      's1#4',
      's1#3',
      's1#5',
      's1#1',
    ]);
  });

  it('a strategy over bm25 ranks by BM25, while the abstention thresholds still read the cosine', async () => {
    const index = createMemoryIndex(haystack, spec, embedder);
    const unified = await createStrategyMethod({ name: 'unified', options: {}, firstStage: 'bm25' }, { id: 'u', k: 2 });
    const out = await unified.run({ id: 'q', text: 'Boston', askedAt: AT }, index, { seed: 1, calls: [] });
    expect(ids(out.retrieval.units)).toEqual(['s1#2', 's1#4']);
    const abst = await createStrategyMethod(
      {
        name: 'abstention',
        options: { thresholds: { fixed: { high: 0.85, low: 0.6 } }, minCoverage: 0 },
        firstStage: 'bm25',
      },
      { id: 'a', k: 2 },
    );
    const decided = await abst.run({ id: 'q', text: 'Boston', askedAt: AT }, index, { seed: 1, calls: [] });
    const notes = decided.retrieval.notes as { abstention: { top1: number; band: string } };
    expect(notes.abstention.top1).toBeCloseTo(0.9, 6); // the cosine of B, not its BM25 score
    expect(notes.abstention.band).toBe('high');
  });
});
