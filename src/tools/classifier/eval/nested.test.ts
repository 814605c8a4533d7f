// Nested leave-one-benchmark-out: the choice for each held-out benchmark never sees that benchmark.
import { describe, expect, it } from 'vitest';
import type { BenchmarkQuestion } from '../train/combined.ts';
import { nestedLobo } from './nested.ts';

const q = (benchmark: string, i: number) => ({ benchmark, id: `${benchmark}${i}` }) as unknown as BenchmarkQuestion;
const questions = ['A', 'B', 'C'].flatMap((b) => [q(b, 1), q(b, 2)]);
const benchOf = (qs: BenchmarkQuestion[]) => [...new Set(qs.map((x) => x.benchmark))].join('');

describe('nestedLobo', () => {
  it('chooses by the inner benchmarks only and scores the choice on the outer one', () => {
    // Candidate 0 is strong on A and C and fails B; candidate 1 is middling everywhere.
    const table: Record<string, number[]> = { A: [0.9, 0.5], B: [0.1, 0.5], C: [0.6, 0.5] };
    const calls: string[] = [];
    const r = nestedLobo(questions, 2, (c, train, test) => {
      calls.push(`${c}:${benchOf(train)}>${benchOf(test)}`);
      return table[benchOf(test)]![c]!;
    });
    expect(r.outer.map((o) => [o.benchmark, o.chosen])).toEqual([
      ['A', 1], // inner B, C: c0 0.35, c1 0.5
      ['B', 0], // inner A, C: c0 0.75, c1 0.5
      ['C', 0], // inner A, B: c0 0.5, c1 0.5 — a tie keeps the first
    ]);
    expect(r.outer.map((o) => o.accuracy)).toEqual([0.5, 0.1, 0.6]);
    expect(r.mean).toBeCloseTo(0.4, 10);
    expect(r.worst).toBe(0.1);
    // No inner call for outer A ever trains or tests on A.
    const innerForA = calls.slice(0, 4);
    expect(innerForA.every((c) => !c.includes('A'))).toBe(true);
    expect(calls[4]).toBe('1:BC>A');
  });

  it('refuses too few benchmarks and no candidates', () => {
    const two = questions.filter((x) => x.benchmark !== 'C');
    expect(() => nestedLobo(two, 1, () => 1)).toThrow(/needs ≥ 3 benchmarks/);
    expect(() => nestedLobo(questions, 0, () => 1)).toThrow(/at least one candidate/);
  });
});
