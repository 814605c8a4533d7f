// Fusion arithmetic, hand-computed (plan §2.4; RRF per Cormack, Clarke & Büttcher 2009, k = 60).
import { describe, expect, it } from 'vitest';
import type { MemoryUnit } from '../core/types.ts';
import { fuse, normalise, type WeightedList } from './fusion.ts';

const u = (id: string): MemoryUnit => ({
  id,
  sessionId: id,
  turnIds: [id],
  role: 'user',
  text: id,
  at: '2023-01-01T00:00:00Z',
});
const LISTS: WeightedList[] = [
  {
    type: 'temporal',
    weight: 0.6,
    units: [
      { unit: u('u1'), score: 0.9 },
      { unit: u('u2'), score: 0.5 },
      { unit: u('u3'), score: 0.1 },
    ],
  },
  {
    type: 'factual',
    weight: 0.4,
    units: [
      { unit: u('u2'), score: 2.0 },
      { unit: u('u4'), score: 1.0 },
    ],
  },
];
const ids = (l: { unit: MemoryUnit }[]) => l.map((x) => x.unit.id);

describe('fuse', () => {
  it('min-max within each list, weighted by probability', () => {
    expect(normalise(LISTS[0]!.units, 'minmax')).toEqual([1, 0.5, 0]);
    // u1 = 0.6·1 = 0.6; u2 = 0.6·0.5 + 0.4·1 = 0.7; u3 = 0; u4 = 0.4·0 = 0 (u3 first seen first).
    const f = fuse(LISTS, 10, { method: 'minmax', rrfK: 60, rrfWeighted: false });
    expect(ids(f)).toEqual(['u2', 'u1', 'u3', 'u4']);
    expect(f.map((x) => x.score)).toEqual([expect.closeTo(0.7, 12), expect.closeTo(0.6, 12), 0, 0]);
  });

  it('a list of equal scores normalises to 1', () => {
    expect(
      normalise(
        [
          { unit: u('a'), score: 0.3 },
          { unit: u('b'), score: 0.3 },
        ],
        'minmax',
      ),
    ).toEqual([1, 1]);
  });

  it('rank normalisation: (n − r) / n', () => {
    // u1 = 0.6; u2 = 0.6·2/3 + 0.4·1 = 0.8; u3 = 0.6·1/3 = 0.2; u4 = 0.4·1/2 = 0.2.
    // u3 and u4 tie in exact arithmetic; in floating point 0.6·(1/3) < 0.4·0.5, so u4 comes first.
    const f = fuse(LISTS, 10, { method: 'rank', rrfK: 60, rrfWeighted: false });
    expect(ids(f)).toEqual(['u2', 'u1', 'u4', 'u3']);
    expect(f.map((x) => x.score)).toEqual([0.8, 0.6, 0.2, 0.2].map((v) => expect.closeTo(v, 12)));
  });

  it('RRF: Σ 1 / (60 + rank), 1-based ranks', () => {
    const f = fuse(LISTS, 10, { method: 'rrf', rrfK: 60, rrfWeighted: false });
    // u2 = 1/62 + 1/61; u1 = 1/61; u4 = 1/62; u3 = 1/63.
    expect(ids(f)).toEqual(['u2', 'u1', 'u4', 'u3']);
    expect(f[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 15);
    expect(f[3]!.score).toBeCloseTo(1 / 63, 15);
  });

  it('weighted RRF multiplies each term by the probability', () => {
    const f = fuse(LISTS, 3, { method: 'rrf', rrfK: 60, rrfWeighted: true });
    // u2 = 0.6/62 + 0.4/61; u1 = 0.6/61; u3 = 0.6/63; u4 = 0.4/62 (cut by k = 3).
    expect(ids(f)).toEqual(['u2', 'u1', 'u3']);
    expect(f[0]!.score).toBeCloseTo(0.6 / 62 + 0.4 / 61, 15);
  });
});
