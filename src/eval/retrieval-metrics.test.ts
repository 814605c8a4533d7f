// Golden tests for the retrieval metrics and gold rules; every expected value is worked out by hand in a comment.
import { describe, expect, it } from 'vitest';
import type { Gold } from '../core/types.ts';
import { deriveRetrievalGold, indexedTurns, type UnitRef } from './retrieval-gold.ts';
import {
  averageRetrieval,
  dcg,
  evaluateRetrieval,
  ndcgAny,
  precision,
  recallAll,
  recallAny,
  turnToSessionRanking,
  type RetrievalEval,
} from './retrieval-metrics.ts';

const LOG2_3 = Math.log2(3); // 1.584962500721156

describe('recall_any / recall_all', () => {
  const ranked = ['a', 'b', 'c', 'd', 'e'];
  const gold = new Set(['b', 'd']);
  it('any: first gold at rank 2', () => {
    expect(recallAny(ranked, gold, 1)).toBe(0);
    expect(recallAny(ranked, gold, 2)).toBe(1);
  });
  it('all: last gold at rank 4', () => {
    expect(recallAll(ranked, gold, 3)).toBe(0);
    expect(recallAll(ranked, gold, 4)).toBe(1);
  });
  it('empty gold: any 0, all 1 (Python any([]) / all([]))', () => {
    expect(recallAny(ranked, new Set(), 5)).toBe(0);
    expect(recallAll(ranked, new Set(), 5)).toBe(1);
  });
});

describe('ndcg_any (eval_utils.py: rel[0] + Σ_{i≥1} rel[i]/log2(i+1))', () => {
  it('dcg discounts rank 2 by log2(2) = 1, rank 3 by log2(3)', () => {
    // [1,1,1]: 1 + 1/1 + 1/log2(3)
    expect(dcg([1, 1, 1], 3)).toBeCloseTo(2 + 1 / LOG2_3, 14);
    expect(dcg([], 3)).toBe(0);
  });
  it('gold at ranks 2 and 4 of k=5', () => {
    // DCG = 1/log2(2) + 1/log2(4) = 1 + 0.5 = 1.5; IDCG = 1 + 1/log2(2) = 2; nDCG = 0.75
    expect(ndcgAny(['a', 'b', 'c', 'd', 'e'], new Set(['b', 'd']), 5)).toBe(0.75);
    // k=3 sees only rank 2: DCG = 1; IDCG = 2 → 0.5
    expect(ndcgAny(['a', 'b', 'c', 'd', 'e'], new Set(['b', 'd']), 3)).toBe(0.5);
  });
  it('a relevant doc that was not retrieved still raises the ideal', () => {
    // gold {b,d,z}, z not ranked: DCG = 1.5; IDCG@5 = 1 + 1 + 1/log2(3) = 2.6309297535714578 → 0.5701406500739014
    expect(ndcgAny(['a', 'b', 'c', 'd', 'e'], new Set(['b', 'd', 'z']), 5)).toBeCloseTo(1.5 / (2 + 1 / LOG2_3), 14);
    expect(ndcgAny(['a', 'b', 'c', 'd', 'e'], new Set(['b', 'd', 'z']), 5)).toBeCloseTo(0.5701406500739014, 12);
  });
  it('single gold at rank 3 → 1/log2(3); no gold → 0', () => {
    expect(ndcgAny(['a', 'b', 'c'], new Set(['c']), 5)).toBeCloseTo(0.6309297535714575, 14);
    expect(ndcgAny(['a', 'b', 'c'], new Set(), 5)).toBe(0);
  });
});

describe('precision = |gold ∩ top k| / k', () => {
  it('divides by k even when fewer units are ranked', () => {
    expect(precision(['a', 'b', 'c'], new Set(['a', 'c']), 5)).toBe(2 / 5);
    expect(precision(['a', 'b', 'c'], new Set(['a', 'c']), 2)).toBe(1 / 2);
  });
});

describe('turnToSessionRanking (evaluate_retrieval_turn2session)', () => {
  // turns ranked: s1 s1 s2 s1 s3 s2 (by session)
  const turns = ['s1_1', 's1_3', 's2_1', 's1_5', 's3_1', 's2_3'];
  const toSession = (t: string): string => t.split('_')[0]!;
  it('grows k until k distinct sessions are covered', () => {
    // k=2: top2 = {s1} → 3 turns give {s1,s2}
    expect(turnToSessionRanking(turns, toSession, 2).effectiveK).toBe(3);
    // k=3: {s1,s2} at 3 and 4 turns, {s1,s2,s3} at 5
    expect(turnToSessionRanking(turns, toSession, 3).effectiveK).toBe(5);
    // k=1: first turn already covers one session
    expect(turnToSessionRanking(turns, toSession, 1).effectiveK).toBe(1);
    // k=4 > 3 sessions: Python stops once effective_k exceeds len(corpus): 6 + 1
    expect(turnToSessionRanking(turns, toSession, 4).effectiveK).toBe(7);
    expect(turnToSessionRanking(turns, toSession, 2).labels).toEqual(['s1', 's1', 's2', 's1', 's3', 's2']);
  });
  it('session metrics at the effective k, ideal counted over turn labels', () => {
    const { labels, effectiveK } = turnToSessionRanking(turns, toSession, 2); // effectiveK 3
    const gold = new Set(['s2']);
    expect(recallAny(labels, gold, effectiveK)).toBe(1);
    // DCG@3 = 1/log2(3) (s2 at rank 3); 2 turns of s2 are in the corpus → IDCG@3 = 1 + 1 = 2
    expect(ndcgAny(labels, gold, effectiveK, 2)).toBeCloseTo(1 / LOG2_3 / 2, 14);
  });
});

// A small haystack: answer_A has a gold user turn; B is filler; answer_C's gold turn is an assistant turn.
//   answer_A: A_1 user (gold), A_2 assistant, A_3 user
//   B:        B_1 user, B_2 assistant
//   answer_C: C_1 user, C_2 assistant (gold)
const gold: Gold = {
  nativeType: 'multi-session',
  type: 'multi-hop',
  isAbstention: false,
  evidenceSessionIds: ['answer_A', 'answer_C'],
  evidenceTurnIds: ['A_1', 'C_2'],
  answer: 'x',
};
const turnUnit = (id: string): UnitRef => ({
  id,
  sessionId: id.startsWith('B') ? 'B' : `answer_${id[0]}`,
  turnIds: [id],
});
const userTurns = ['A_1', 'A_3', 'B_1', 'C_1'].map(turnUnit);
const value = (e: RetrievalEval, level: string, metric: string, k: number): number | undefined =>
  e.rows.find((r) => r.level === level && r.metric === metric && r.k === k)?.value;

describe('gold derivation', () => {
  const indexed = indexedTurns(userTurns);
  it('official: only gold turns that were indexed, and their sessions', () => {
    const g = deriveRetrievalGold(gold, indexed, 'official');
    expect([...g.turns]).toEqual(['A_1']);
    expect([...g.sessions]).toEqual(['answer_A']); // C's only gold turn (assistant) is not indexed
  });
  it('evidence: every labelled id', () => {
    const g = deriveRetrievalGold(gold, indexed, 'evidence');
    expect([...g.turns]).toEqual(['A_1', 'C_2']);
    expect([...g.sessions]).toEqual(['answer_A', 'answer_C']);
  });
});

describe('evaluateRetrieval, turn units (user turns indexed)', () => {
  const ranked = ['B_1', 'A_3', 'A_1', 'C_1'].map(turnUnit);
  const ks = [1, 2, 3, 4];
  it('official turn level', () => {
    const e = evaluateRetrieval({ ranked, indexed: userTurns, granularity: 'turn', gold, ks });
    expect(e.levels).toEqual([
      { level: 'turn', counted: true },
      { level: 'session', counted: true },
    ]);
    expect(value(e, 'turn', 'recall_any', 2)).toBe(0);
    expect(value(e, 'turn', 'recall_all', 3)).toBe(1); // A_1 at rank 3
    expect(value(e, 'turn', 'ndcg_any', 3)).toBeCloseTo(1 / LOG2_3, 14); // 1/log2(3) over IDCG 1
    expect(value(e, 'turn', 'precision', 3)).toBe(1 / 3);
  });
  it('official session level keeps the noans split of run_retrieval.py', () => {
    const e = evaluateRetrieval({ ranked, indexed: userTurns, granularity: 'turn', gold, ks });
    // labels: B, noans_A (A_3 has no has_answer), answer_A, C. k=2 → 2 distinct at 2 turns, answer_A not yet in.
    expect(value(e, 'session', 'recall_any', 2)).toBe(0);
    // k=3 → 3 turns; answer_A at rank 3; only A_1 is labelled answer_A in the corpus → IDCG 1
    expect(value(e, 'session', 'recall_any', 3)).toBe(1);
    expect(value(e, 'session', 'ndcg_any', 3)).toBeCloseTo(1 / LOG2_3, 14);
    // precision over real sessions B, answer_A, answer_C: top 2 has answer_A → 1/2
    expect(value(e, 'session', 'precision', 2)).toBe(1 / 2);
  });
  it('evidence mode: gold sessions A and C, gold turn C_2 never retrievable', () => {
    const e = evaluateRetrieval({ ranked, indexed: userTurns, granularity: 'turn', gold, ks, mode: 'evidence' });
    // labels B, A, A, C; k=2 → effective k 2: {B, A}: any 1, all 0
    expect(value(e, 'session', 'recall_any', 2)).toBe(1);
    expect(value(e, 'session', 'recall_all', 2)).toBe(0);
    // DCG@2 = 0 + 1/log2(2) = 1; 3 indexed turns lie in A or C → IDCG@2 = 2 → 0.5
    expect(value(e, 'session', 'ndcg_any', 2)).toBe(0.5);
    expect(value(e, 'turn', 'recall_all', 4)).toBe(0); // C_2 is not in the index
    expect(value(e, 'turn', 'recall_any', 3)).toBe(1);
  });
});

describe('evaluateRetrieval, session and round units', () => {
  const sessions: UnitRef[] = [
    { id: 'answer_A', sessionId: 'answer_A', turnIds: ['A_1', 'A_3'] },
    { id: 'B', sessionId: 'B', turnIds: ['B_1'] },
    { id: 'answer_C', sessionId: 'answer_C', turnIds: ['C_1'] },
  ];
  it('session units give session level only; ndcg@2 of a gold at rank 2 is 1 officially', () => {
    const ranked = [sessions[2]!, sessions[0]!, sessions[1]!];
    const e = evaluateRetrieval({ ranked, indexed: sessions, granularity: 'session', gold, ks: [1, 2] });
    expect(e.levels).toEqual([{ level: 'session', counted: true }]);
    expect(e.rows.every((r) => r.level === 'session')).toBe(true);
    expect(value(e, 'session', 'recall_any', 1)).toBe(0); // answer_C is not gold officially
    expect(value(e, 'session', 'recall_any', 2)).toBe(1);
    expect(value(e, 'session', 'ndcg_any', 2)).toBe(1); // (1/log2(2)) / 1
  });
  it('round units: a round is relevant if it holds a gold turn', () => {
    // all roles indexed → official gold turns A_1 and C_2, sessions A and C
    const rounds: UnitRef[] = [
      { id: 'answer_A#r1', sessionId: 'answer_A', turnIds: ['A_1', 'A_2'] },
      { id: 'answer_A#r2', sessionId: 'answer_A', turnIds: ['A_3'] },
      { id: 'B#r1', sessionId: 'B', turnIds: ['B_1', 'B_2'] },
      { id: 'answer_C#r1', sessionId: 'answer_C', turnIds: ['C_1', 'C_2'] },
    ];
    const ranked = [rounds[3]!, rounds[2]!, rounds[0]!, rounds[1]!];
    const e = evaluateRetrieval({ ranked, indexed: rounds, granularity: 'round', gold, ks: [1, 3] });
    expect(value(e, 'turn', 'recall_any', 1)).toBe(1); // C_2 covered
    expect(value(e, 'turn', 'recall_all', 1)).toBe(0); // A_1 not yet
    expect(value(e, 'turn', 'recall_all', 3)).toBe(1);
    // relevant rounds at ranks 1 and 3: DCG = 1 + 1/log2(3); IDCG (2 relevant) = 2
    expect(value(e, 'turn', 'ndcg_any', 3)).toBeCloseTo((1 + 1 / LOG2_3) / 2, 14);
    expect(value(e, 'turn', 'precision', 3)).toBe(2 / 3);
    expect(value(e, 'session', 'recall_all', 3)).toBe(1);
  });
});

describe('skip rules', () => {
  const ranked = ['A_1', 'B_1'].map(turnUnit);
  it('abstention questions count at no level (rows kept for inspection)', () => {
    const e = evaluateRetrieval({
      ranked,
      indexed: userTurns,
      granularity: 'turn',
      gold: { ...gold, isAbstention: true },
    });
    expect(e.levels).toEqual([
      { level: 'turn', counted: false, skipReason: 'abstention' },
      { level: 'session', counted: false, skipReason: 'abstention' },
    ]);
    expect(e.rows.length).toBeGreaterThan(0);
  });
  it('evidence only in unindexed (assistant) turns: no gold officially, counted in evidence mode', () => {
    const asst: Gold = { ...gold, evidenceSessionIds: ['answer_C'], evidenceTurnIds: ['C_2'] };
    const off = evaluateRetrieval({ ranked, indexed: userTurns, granularity: 'turn', gold: asst });
    expect(off.levels.map((l) => l.skipReason)).toEqual(['no-gold', 'no-gold']);
    expect(off.rows).toEqual([]);
    const ev = evaluateRetrieval({ ranked, indexed: userTurns, granularity: 'turn', gold: asst, mode: 'evidence' });
    expect(ev.levels.every((l) => l.counted)).toBe(true);
  });
  it('averages use only counted questions', () => {
    const a = evaluateRetrieval({ ranked, indexed: userTurns, granularity: 'turn', gold, ks: [1] }); // A_1 first → 1
    const b = evaluateRetrieval({
      ranked,
      indexed: userTurns,
      granularity: 'turn',
      gold: { ...gold, isAbstention: true },
      ks: [1],
    });
    const c = evaluateRetrieval({
      ranked: ['B_1', 'A_1'].map(turnUnit),
      indexed: userTurns,
      granularity: 'turn',
      gold,
      ks: [1],
    });
    const avg = averageRetrieval([a, b, c]);
    const turnAny = avg.find((m) => m.level === 'turn' && m.metric === 'recall_any' && m.k === 1);
    expect(turnAny).toEqual({ level: 'turn', metric: 'recall_any', k: 1, mean: 0.5, n: 2 }); // (1 + 0) / 2
  });
});
