// The findings rules on hand-made verdict rows: one line per baseline with its counts and range, the first-stage
// effect named whenever adaptmr-over-<stage> rows exist, ties and the premise of experiment 2, and the summary's budget.
import { describe, expect, it } from 'vitest';
import { familiesTable, findingLines, SUMMARY_LINES } from '../../report/findings-text.ts';
import { computeFindings } from './findings.ts';
import type { VerdictRow } from './inputs.ts';

const row = (v: Partial<VerdictRow>): VerdictRow => ({
  experiment: 'adaptmr-vs-baselines',
  dataset: 'longmemeval-s',
  claim: 'adaptmr-vs-baseline',
  methodA: 'adaptmr',
  methodB: 'unified-embedding',
  metric: 'recall_any',
  level: 'session',
  k: 1,
  adaptType: 'all',
  n: 85,
  estimate: 0.271,
  ciLow: 0.165,
  ciHigh: 0.376,
  pValue: 0.0001,
  pHolm: 0.0004,
  family: 'e3/longmemeval-s/session/recall_any@1/primary/all',
  familySize: 4,
  mde: 0.2,
  verdict: 'reached',
  reason: '问题',
  flags: '',
  ...v,
});

describe('findings', () => {
  const rows = [
    row({ claim: 'adaptmr-vs-unified' }),
    row({}),
    row({ methodB: 'bm25', estimate: -0.071, ciLow: -0.19, ciHigh: -0.024, verdict: 'not met', flags: 'ceiling' }),
    row({ claim: 'adaptmr-vs-all-baselines', methodB: 'bm25', estimate: -0.071, verdict: 'not met' }),
    row({ claim: 'adaptmr-vs-unified', methodA: 'adaptmr-bm25', estimate: 0.424, ciLow: 0.318, ciHigh: 0.529 }),
    row({
      claim: 'adaptmr-over-bm25',
      methodA: 'adaptmr-bm25',
      methodB: 'bm25',
      estimate: 0,
      ciLow: -0.047,
      ciHigh: 0.047,
      verdict: 'not established',
    }),
    row({
      claim: 'adaptmr-vs-unified',
      adaptType: 'update',
      estimate: 0.391,
      verdict: 'not established',
      familySize: 60,
    }),
  ];

  it('experiment 3: counts per baseline, every baseline at once, and the first-stage effect', () => {
    const f = computeFindings(rows);
    expect(f.map((x) => [x.experiment, x.dataset])).toEqual(Array(3).fill(['adaptmr-vs-baselines', 'longmemeval-s']));
    expect(f[0]!.finding).toBe(
      'AdaptMR vs unified-embedding: 1 of 1 variants reached, 0 not met (+27.1); vs bm25: 0 of 1 variants reached, 1 not met (−7.1)',
    );
    expect(f[1]!.finding).toMatch(
      /^beats every baseline: 0 of 1 variants; first-stage effect: adaptmr-bm25 over the same first stage \(bm25\) \+0\.0 \[−4\.7, \+4\.7\] \(not established\) — of its \+42\.4 over unified embedding \(reached\), the first stage alone gives \+42\.4; routing's own share is not established$/,
    );
    expect(f[1]!.supportingClaims).toContain('adaptmr-over-bm25[all] adaptmr-bm25−bm25');
    expect(f[2]!.finding).toBe(
      'no per-type claim reached (1 rows, family of 60 per-type tests); overall rows flagged: 1 ceiling (at ceiling: bm25)',
    );
  });

  it('experiment 2: each tied best single strategy, and a premise a single strategy defeats', () => {
    const e2 = (v: Partial<VerdictRow>) => row({ experiment: 'oracle-upper-bound', methodA: 'oracle', ...v });
    const [f] = computeFindings([
      e2({ claim: 'oracle-vs-unified', estimate: 0.214, ciLow: 0.048, ciHigh: 0.381, verdict: 'not established' }),
      e2({
        claim: 'oracle-vs-best-single',
        methodB: 'strategy-multi-hop',
        estimate: 0.024,
        ciLow: -0.048,
        ciHigh: 0.119,
        verdict: 'not established',
        flags: 'tie',
      }),
      e2({
        claim: 'oracle-vs-best-single',
        methodB: 'strategy-temporal',
        estimate: -0.119,
        ciLow: -0.238,
        ciHigh: -0.024,
        verdict: 'not met',
        flags: 'tie',
      }),
      e2({
        claim: 'premise-single-strategy',
        methodB: 'strategy-temporal',
        estimate: -0.119,
        ciLow: -0.238,
        ciHigh: -0.024,
        verdict: 'not met',
      }),
    ]);
    expect(f!.finding).toBe(
      'oracle strategy (held-out) − unified +21.4 [+4.8, +38.1] (not established); − strategy-multi-hop (tied best single) +2.4 [−4.8, +11.9] (not established); − strategy-temporal (tied best single) −11.9 [−23.8, −2.4] (not met); a single strategy scores at least as much (strategy-temporal −11.9 [−23.8, −2.4]): no evidence for routing by type',
    );
  });

  it('the summary keeps to its budget and says where the rest is; the families table counts each family once', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      experiment: 'x',
      dataset: `d${i}`,
      finding: 'f',
      supportingClaims: '',
    }));
    const lines = findingLines(many, 'r.duckdb');
    expect(lines).toHaveLength(SUMMARY_LINES);
    // 30 lines: title, heading, 26 findings, the "more" line, footer → 40 − 26 = 14 left out (by hand).
    expect(lines.at(-2)).toBe('  … 14 more findings: adaptmr report r.duckdb --verdicts');
    expect(findingLines(computeFindings(rows), 'r.duckdb').length).toBeLessThanOrEqual(SUMMARY_LINES);
    const t = familiesTable(rows);
    expect(t.match(/primary\/all/g)).toHaveLength(1);
  });
});
