// rago's ranking on hand-made candidates: the two halves, the 0.7 floor, keyword candidates, dedup, order by score.
import { describe, expect, it } from 'vitest';
import { rankMemories, type Candidate } from './retrieval.ts';
import { scopeSession } from './rago-method.ts';

const c = (cosine: number, keyword = 0, inScope = false): Candidate => ({ cosine, keyword, inScope });

describe('rago ranking', () => {
  it("fills ⌊k/2⌋ from the question's session (no floor) and the rest globally (cosine ≥ 0.7), ranked by cosine", () => {
    const cands = [c(0.95), c(0.9), c(0.75), c(0.4, 0, true), c(0.3, 0, true), c(0.2, 0, true), c(0.65)];
    const r = rankMemories(cands, 5, 0.7);
    // session half: 3, 4 (best two in scope); global half (3): 0, 1, 2.
    expect(r.map((x) => x.index)).toEqual([0, 1, 2, 3, 4]);
    expect(r.map((x) => x.score)).toEqual([0.95, 0.9, 0.75, 0.4, 0.3]);
    expect(r[3]!.via).toEqual(['session']);
    expect(r[0]!.via).toEqual(['vector']);
  });

  it('lets keyword hits under the floor fill global slots the vector search leaves empty', () => {
    const cands = [c(0.8), c(0.5, 3.2), c(0.6, 1.1), c(0.65), c(0.1, 0, true)];
    const r = rankMemories(cands, 4, 0.7);
    // global half 2: vector {0}, keyword {1, 2} → by cosine 0 (0.8), 2 (0.6); session half 2: {4}.
    expect(r.map((x) => [x.index, x.via])).toEqual([
      [0, ['vector']],
      [2, ['keyword']],
      [4, ['session']],
    ]);
  });

  it('keeps a memory found by several searches once, and odd k gives the remainder to the global half', () => {
    const cands = [c(0.9, 2, true), c(0.8, 1), c(0.75)];
    const r = rankMemories(cands, 3, 0.7);
    expect(r.map((x) => x.index)).toEqual([0, 1]);
    expect(r[0]!.via).toEqual(['session', 'vector', 'keyword']);
    expect(rankMemories([c(0.9), c(0.8)], 1, 0.7).map((x) => x.index)).toEqual([0]);
  });

  it('scopes a question to the latest session at or before its date', () => {
    const store = {
      sessions: [
        { sessionId: 'a', atMs: 10 },
        { sessionId: 'b', atMs: 20 },
        { sessionId: 'c', atMs: 30 },
      ],
    };
    expect(scopeSession(store, 25)).toBe('b');
    expect(scopeSession(store, 30)).toBe('c');
    expect(scopeSession(store, 5)).toBeUndefined();
  });
});
