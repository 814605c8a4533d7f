// mrr, recall_frac and stale_above, each expected value worked out by hand in a comment: first the functions on
// small lists, then evaluateRetrieval on a question with a superseded value (an old page count, 旧的页数, replaced).
import { describe, expect, it } from 'vitest';
import type { Gold } from '../core/types.ts';
import { recallFraction, reciprocalRank, staleAbove } from './rank-metrics.ts';
import type { UnitRef } from './retrieval-gold.ts';
import { evaluateRetrieval, type RetrievalEval } from './retrieval-metrics.ts';

describe('reciprocal rank, fraction recalled, stale above', () => {
  it('mrr: first relevant at rank 2 → 1/2 from k = 2 on, 0 below', () => {
    expect(reciprocalRank([false, true, true], 1)).toBe(0);
    expect(reciprocalRank([false, true, true], 2)).toBe(0.5);
    expect(reciprocalRank([false, true, true], 50)).toBe(0.5);
    expect(reciprocalRank([], 5)).toBe(0);
  });
  it('recall_frac: 2 of 3 gold found → 2/3; empty gold → 0', () => {
    expect(recallFraction(new Set(['a', 'b', 'x']), new Set(['a', 'b', 'c']))).toBeCloseTo(2 / 3, 15);
    expect(recallFraction(new Set(['a']), new Set())).toBe(0);
  });
  it('stale_above: superseded before every current item, or with no current item in the top k', () => {
    expect(staleAbove(['none', 'superseded', 'current'], 3)).toBe(1); // old value at 2, new at 3
    expect(staleAbove(['current', 'superseded'], 2)).toBe(0); // new value first
    expect(staleAbove(['none', 'current', 'superseded'], 1)).toBe(0); // neither in the top 1
    expect(staleAbove(['none', 'current', 'superseded'], 3)).toBe(0);
    expect(staleAbove(['none', 'superseded', 'none'], 3)).toBe(1); // old retrieved, new not at all
    expect(staleAbove(['none', 'none', 'current', 'superseded'], 2)).toBe(0);
  });
});

// Sessions: old (a superseded page count), filler, new (the current one). Turns: old_1 superseded, new_1 current.
const unit = (id: string, sessionId: string): UnitRef => ({ id, sessionId, turnIds: [id] });
const indexed = [
  unit('old_1', 'old'),
  unit('old_2', 'old'),
  unit('f_1', 'f'),
  unit('new_1', 'new'),
  unit('new_2', 'new'),
];
const gold: Gold = {
  nativeType: 'knowledge-update',
  type: 'update',
  isAbstention: false,
  evidenceSessionIds: ['old', 'new'],
  evidenceTurnIds: ['old_1', 'new_1'],
  supersededSessionIds: ['old'],
  supersededTurnIds: ['old_1'],
  answer: '220 页',
};
const value = (e: RetrievalEval, level: string, metric: string, k: number) =>
  e.rows.find((r) => r.level === level && r.metric === metric && r.k === k)?.value;

describe('evaluateRetrieval: the new metrics per level', () => {
  // Ranking: f_1, old_1, new_2, new_1, old_2.
  const ranked = ['f_1', 'old_1', 'new_2', 'new_1', 'old_2'].map((id) => indexed.find((u) => u.id === id)!);
  const e = evaluateRetrieval({ ranked, indexed, granularity: 'turn', gold, ks: [1, 3, 5], mode: 'evidence' });

  it('turn level: mrr 1/2 (old_1 at 2); recall_frac 1/2 at k=3 (old_1 of old_1,new_1), 1 at 5', () => {
    expect([1, 3, 5].map((k) => value(e, 'turn', 'mrr', k))).toEqual([0, 0.5, 0.5]);
    expect([1, 3, 5].map((k) => value(e, 'turn', 'recall_frac', k))).toEqual([0, 0.5, 1]);
  });
  it('turn level: stale (old_1 at 2 above new_1 at 4) at k=3 and k=5; nothing at k=1', () => {
    expect([1, 3, 5].map((k) => value(e, 'turn', 'stale_above', k))).toEqual([0, 1, 1]);
  });
  it('session level (labels f, old, new, new, old; evidence mode): mrr 1/2, stale from k=2 on', () => {
    // distinct sessions f, old, new: k=1 covers f → mrr 0, frac 0, not stale; k=3 covers f, old, new: old (rank 2) is
    // above new (rank 3) → stale 1; frac 2/2.
    expect([1, 3, 5].map((k) => value(e, 'session', 'mrr', k))).toEqual([0, 0.5, 0.5]);
    expect([1, 3, 5].map((k) => value(e, 'session', 'recall_frac', k))).toEqual([0, 1, 1]);
    expect([1, 3, 5].map((k) => value(e, 'session', 'stale_above', k))).toEqual([0, 1, 1]);
  });
  it('the new value first: stale 0 at every k', () => {
    const first = [indexed[3]!, indexed[0]!];
    const f = evaluateRetrieval({ ranked: first, indexed, granularity: 'turn', gold, ks: [1, 3], mode: 'evidence' });
    expect(f.rows.filter((r) => r.metric === 'stale_above').map((r) => r.value)).toEqual([0, 0, 0, 0]);
    expect(value(f, 'turn', 'mrr', 1)).toBe(1);
  });
  it('no stale_above rows without superseded gold; mrr and recall_frac still there', () => {
    const plain: Gold = { ...gold };
    delete plain.supersededSessionIds;
    delete plain.supersededTurnIds;
    const p = evaluateRetrieval({ ranked, indexed, granularity: 'turn', gold: plain, ks: [3], mode: 'evidence' });
    expect(p.rows.some((r) => r.metric === 'stale_above')).toBe(false);
    expect(value(p, 'turn', 'mrr', 3)).toBe(0.5);
  });
  it('session units: ranked sessions new, old → mrr 1, stale 0; old alone → stale 1', () => {
    const sessions: UnitRef[] = ['old', 'f', 'new'].map((s) => ({ id: s, sessionId: s, turnIds: [`${s}_1`] }));
    const byId = (ids: string[]) => ids.map((id) => sessions.find((s) => s.id === id)!);
    const run = (ids: string[]) =>
      evaluateRetrieval({
        ranked: byId(ids),
        indexed: sessions,
        granularity: 'session',
        gold,
        ks: [2],
        mode: 'evidence',
      });
    expect(value(run(['new', 'old']), 'session', 'stale_above', 2)).toBe(0);
    expect(value(run(['new', 'old']), 'session', 'mrr', 2)).toBe(1);
    expect(value(run(['old', 'f']), 'session', 'stale_above', 2)).toBe(1);
    expect(value(run(['old', 'f']), 'session', 'recall_frac', 2)).toBe(0.5);
  });
});
