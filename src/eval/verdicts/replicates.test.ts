// Verdicts on a replicated method use its replicate-averaged per-question score: by hand, replicates scoring 1 and 0 on
// q1 and 1 and 1 on q2 give the method 0.5 and 1; other methods and inputs without replicates are untouched.
import { describe, expect, it } from 'vitest';
import type { ScoreInput } from '../stats/results/index.ts';
import type { VerdictInput } from './context.ts';
import type { MethodFacts, PlanRunInput } from './inputs.ts';
import { averageReplicates } from './replicates.ts';

const score = (method: string, questionId: string, value: number): ScoreInput => ({
  runId: 'r',
  dataset: 'locomo',
  questionId,
  method,
  granularity: 'turn',
  level: 'qa',
  metric: 'accuracy',
  k: null,
  value,
  adaptType: 'factual',
  nativeType: '1',
});
const facts = (method: string, degraded: string | null = null): MethodFacts => ({
  runId: 'r',
  method,
  kind: 'mcp-memory',
  upperBound: false,
  degraded,
  ranks: false,
});
const run = { runId: 'r', methods: ['rb:r1', 'rb:r2', 'bm25'].map((id) => ({ id, method: 'x', options: {} })) };

const input = (): VerdictInput => ({
  scores: [
    score('rb:r1', 'q1', 1),
    score('rb:r2', 'q1', 0),
    score('rb:r1', 'q2', 1),
    score('rb:r2', 'q2', 1),
    score('bm25', 'q1', 0),
  ],
  questions: [],
  methods: [facts('rb:r1'), facts('rb:r2', 'stand-in'), facts('bm25')],
  retrievals: [],
  runs: [run as unknown as PlanRunInput],
  runStats: new Map(),
  comparisons: [],
});

describe('averageReplicates', () => {
  it('collapses the replicates into one method with the mean per question', () => {
    const out = averageReplicates(input());
    const byQ = Object.fromEntries(out.scores.map((s) => [`${s.method}/${s.questionId}`, s.value]));
    expect(byQ).toEqual({ 'bm25/q1': 0, 'rb/q1': 0.5, 'rb/q2': 1 });
    expect(out.methods.map((m) => [m.method, m.degraded])).toEqual([
      ['rb', 'stand-in'],
      ['bm25', null],
    ]);
    expect(out.runs[0]!.methods.map((m) => m.id)).toEqual(['rb', 'bm25']);
  });

  it('returns an input without replicates unchanged', () => {
    const plain = { ...input(), methods: [facts('bm25')], scores: [score('bm25', 'q1', 0)] };
    expect(averageReplicates(plain)).toBe(plain);
  });
});
