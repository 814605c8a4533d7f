/**
 * Nested leave-one-benchmark-out: an honest estimate of "choose the recipe by LOBO accuracy, then ship it".
 * Choosing among candidates by their held-out accuracy and reporting the winner's accuracy is optimistic (the
 * choice saw the test benchmarks). Here, for each outer held-out benchmark B, the candidates are compared by an
 * inner LOBO over the other benchmarks only; the inner winner is trained on all of them and scored on B — so B's
 * score never influenced the choice made for B (Varma & Simon 2006, nested cross-validation, with benchmarks as
 * the folds).
 */
import { mean } from '../../../core/averages.ts';
import type { BenchmarkQuestion } from '../train/combined.ts';
import { leaveOneBenchmarkOut, type Split } from './lobo-splits.ts';

/** Trains candidate `c` on `train` and returns the accuracy on `test` (0–1). */
export type ScoreCandidate = (c: number, train: BenchmarkQuestion[], test: BenchmarkQuestion[]) => number;

export interface NestedOuter {
  /** The outer held-out benchmark. */
  benchmark: string;
  n: number;
  /** Inner LOBO mean accuracy of each candidate (index = candidate), over the other benchmarks. */
  innerMeans: number[];
  /** The candidate with the best inner mean (ties: the first). */
  chosen: number;
  /** The chosen candidate's accuracy on the outer held-out benchmark. */
  accuracy: number;
}

export interface NestedResult {
  outer: NestedOuter[];
  /** Mean over outer benchmarks of the chosen candidates' held-out accuracy — the estimate to quote. */
  mean: number;
  worst: number;
}

function innerMeans(inner: readonly Split[], candidates: number, score: ScoreCandidate): number[] {
  return Array.from({ length: candidates }, (_, c) => mean(inner.map((s) => score(c, s.train, s.test))));
}

export function nestedLobo(
  questions: readonly BenchmarkQuestion[],
  candidates: number,
  score: ScoreCandidate,
  onOuter: (o: NestedOuter) => void = () => {},
): NestedResult {
  if (candidates < 1) throw new Error('nested selection needs at least one candidate');
  const outer = leaveOneBenchmarkOut(questions).map((split) => {
    const inner = leaveOneBenchmarkOut(split.train);
    if (inner.length < 2)
      throw new Error(`nested selection needs ≥ 3 benchmarks; holding out ${split.name} leaves ${inner.length}`);
    const means = innerMeans(inner, candidates, score);
    const chosen = means.indexOf(Math.max(...means));
    const o = {
      benchmark: split.name,
      n: split.test.length,
      innerMeans: means,
      chosen,
      accuracy: score(chosen, split.train, split.test),
    };
    onOuter(o);
    return o;
  });
  const accs = outer.map((o) => o.accuracy);
  return { outer, mean: mean(accs), worst: Math.min(...accs) };
}
