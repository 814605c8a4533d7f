// The summary's verdict lines: every stored verdict one line each, grouped by plan experiment in the plan's order (2
// before 3 although "adaptmr-vs-baselines" sorts first), a stand-in marked, and a claim the run had no method for
// (no variant over the BM25 first stage) left to the full report. The tables and the oracle rows end to end on real
// data: test/quickstart.test.ts.
import { describe, expect, it } from 'vitest';
import type { VerdictRow } from '../store/index.ts';
import { verdictLines } from './summary.ts';

const row = (v: Partial<VerdictRow>): VerdictRow => ({
  experiment: 'adaptmr-vs-baselines',
  dataset: 'locomo',
  claim: 'adaptmr-vs-unified',
  methodA: 'adaptmr',
  methodB: 'unified-embedding',
  metric: 'recall_any',
  level: 'turn',
  k: 10,
  adaptType: 'all',
  n: 40,
  estimate: 0.1,
  ciLow: 0.02,
  ciHigh: 0.2,
  pValue: 0.01,
  pHolm: 0.02,
  family: 'f',
  familySize: 2,
  mde: 0.2,
  verdict: 'reached',
  reason: 'vs unified-embedding; 问题 <b>',
  flags: '',
  ...v,
});

describe('verdictLines', () => {
  it('groups by experiment in the plan order, one line per verdict, and leaves out claims the run had no method for', () => {
    const lines = verdictLines(
      [
        row({}),
        row({
          claim: 'adaptmr-over-bm25',
          methodA: null,
          methodB: 'bm25',
          verdict: 'n/a',
          reason: 'no adaptmr method with firstStage: bm25 in this run',
        }),
        row({
          claim: 'adaptmr-vs-strongest',
          methodB: 'rago',
          adaptType: 'temporal',
          verdict: 'n/a',
          reason: 'n too small',
        }),
        row({
          experiment: 'oracle-upper-bound',
          claim: 'oracle-vs-unified',
          methodA: 'oracle',
          verdict: 'not established',
          reason: 'CI reaches below +10.0',
        }),
      ],
      new Map([['rago', 'offline']]),
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^Experiment 2 — the oracle strategy \(held-out\) \(oracle-upper-bound\): verdicts\n {2}locomo oracle-vs-unified \[all\] oracle − unified-embedding: \+10\.0 \[\+2\.0, \+20\.0\] n 40, p_holm 0\.020 \(m 2\), MDE 20\.0 → not established \(CI reaches below \+10\.0\)$/u,
    );
    const exp3 = lines[1]!.split('\n');
    expect(exp3[0]).toBe('Experiment 3 — AdaptMR vs the baselines (adaptmr-vs-baselines): verdicts');
    expect(exp3.slice(1)).toEqual([
      '  locomo adaptmr-vs-unified [all] adaptmr − unified-embedding: +10.0 [+2.0, +20.0] n 40, p_holm 0.020 (m 2), MDE 20.0 → reached (vs unified-embedding; 问题 <b>)',
      '  locomo adaptmr-vs-strongest [temporal] adaptmr − rago (offline): +10.0 [+2.0, +20.0] n 40, p_holm 0.020 (m 2), MDE 20.0 → n/a (n too small)',
    ]);
  });

  it('gives no lines for a file without verdicts', () => {
    expect(verdictLines([], new Map())).toEqual([]);
  });
});
