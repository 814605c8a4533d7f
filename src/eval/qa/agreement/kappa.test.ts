// Cohen's and Fleiss' kappa against hand counts, and the judge_agreement rows of a small panel counted by hand.
import { describe, expect, it } from 'vitest';
import { cohensKappa, fleissKappa, majorityVerdict } from './kappa.ts';
import { computeJudgeAgreement, type VerdictInput } from './panel-stats.ts';

const T = true;
const F = false;
const rep = <V>(v: V, n: number): V[] => Array.from({ length: n }, () => v);

describe("Cohen's kappa", () => {
  it('matches a hand count: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no', () => {
    // p_o = 35/50 = 0.7; p_A(yes) = 25/50, p_B(yes) = 30/50; p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2 / 0.5 = 0.4
    const a = [...rep(T, 20), ...rep(T, 5), ...rep(F, 10), ...rep(F, 15)];
    const b = [...rep(T, 20), ...rep(F, 5), ...rep(T, 10), ...rep(F, 15)];
    const k = cohensKappa(a, b);
    expect(k.n).toBe(50);
    expect(k.agreement).toBeCloseTo(0.7, 12);
    expect(k.chance).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
  });

  it('is 1 for identical varied labels, below 0 for systematic disagreement, and null when chance agreement is 1', () => {
    expect(cohensKappa([T, F, T], [T, F, T]).kappa).toBeCloseTo(1, 12);
    // a = T,T,F,F; b = F,F,T,T: p_o = 0, p_e = 0.5 → κ = −1
    expect(cohensKappa([T, T, F, F], [F, F, T, T]).kappa).toBeCloseTo(-1, 12);
    expect(cohensKappa([T, T, T], [T, T, T])).toMatchObject({ agreement: 1, kappa: null });
    expect(() => cohensKappa([T], [T, F])).toThrow(/1 and 2/);
  });
});

describe("Fleiss' kappa", () => {
  it('matches a hand count: 4 items, 3 raters', () => {
    // P_i: TTT 1, TTF (2²+1²−3)/6 = 1/3, FFF 1, TFF 1/3 → P̄ = 2/3; p(T) = 6/12 → P̄_e = 0.5; κ = (2/3 − 1/2)/(1/2) = 1/3
    const k = fleissKappa([
      [T, T, T],
      [T, T, F],
      [F, F, F],
      [T, F, F],
    ]);
    expect(k.agreement).toBeCloseTo(2 / 3, 12);
    expect(k.chance).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(1 / 3, 12);
    expect(() => fleissKappa([[T, T], [T]])).toThrow(/2 raters/);
  });
});

describe('majority verdict over judge repeats', () => {
  it('needs more than half; a tie is not correct', () => {
    expect([
      majorityVerdict([T]),
      majorityVerdict([T, F]),
      majorityVerdict([T, T, F]),
      majorityVerdict([F, F, T]),
    ]).toEqual([T, F, T, F]);
  });
});

describe('judge_agreement rows', () => {
  const v = (judge: string, questionId: string, adaptType: string, correct: boolean[]): VerdictInput => ({
    runId: 'r',
    dataset: 'd',
    questionId,
    method: 'm',
    granularity: 'session',
    adaptType,
    nativeType: 'x',
    judge,
    correct,
    counted: true,
  });
  // 4 answers; a/b: q1 TT, q2 TF, q3 FF, q4 FT (b's q4 by majority of 3 repeats); c judges only q1–q3.
  const rows = [
    v('a', 'q1', 'factual', [T]),
    v('a', 'q2', 'factual', [T]),
    v('a', 'q3', 'temporal', [F]),
    v('a', 'q4', 'temporal', [F]),
    v('b', 'q1', 'factual', [T]),
    v('b', 'q2', 'factual', [F]),
    v('b', 'q3', 'temporal', [F]),
    v('b', 'q4', 'temporal', [T, T, F]),
    v('c', 'q1', 'factual', [T]),
    v('c', 'q2', 'factual', [T]),
    v('c', 'q3', 'temporal', [T]),
  ];
  const out = computeJudgeAgreement(rows);
  const cell = (a: string, b: string, t: string) =>
    out.find((r) => r.judgeA === a && r.judgeB === b && r.adaptType === t);

  it('pairs every two judges on the answers both judged, per type and all', () => {
    // a vs b, all: p_o = 2/4; p_a(T) = 2/4, p_b(T) = 2/4 → p_e = 0.5 → κ = 0
    expect(cell('a', 'b', 'all')).toMatchObject({ n: 4, agreement: 0.5, kappa: 0 });
    // a vs b, factual (q1 TT, q2 TF): p_o = 1/2, p_a = 1, p_b = 1/2 → p_e = 1/2 → κ = 0
    expect(cell('a', 'b', 'factual')).toMatchObject({ n: 2, agreement: 0.5, kappa: 0 });
    // a vs c on q1–q3: TT, TT, FT → p_o = 2/3
    expect(cell('a', 'c', 'all')?.n).toBe(3);
    expect(cell('a', 'c', 'all')?.agreement).toBeCloseTo(2 / 3, 12);
  });

  it("adds Fleiss' kappa over the answers all three judged", () => {
    // q1 TTT (1), q2 TFT (1/3), q3 FFT (1/3) → P̄ = 5/9; p(T) = 6/9 → P̄_e = 4/9 + 1/9 = 5/9 → κ = 0
    const all = cell('all', 'all', 'all');
    expect(all?.n).toBe(3);
    expect(all?.agreement).toBeCloseTo(5 / 9, 12);
    expect(all?.kappa).toBeCloseTo(0, 12);
  });
});
