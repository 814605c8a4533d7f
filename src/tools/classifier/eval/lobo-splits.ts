/**
 * The splits of the two cross-benchmark protocols, shared by `classifier eval` and the recipe search:
 * - leave-one-benchmark-out: for each benchmark, train on every other benchmark's questions, test on all of its own;
 * - k-fold on one dataset with the other benchmarks added to training: the test dataset's questions are dealt into
 *   k folds (stratified by type, seeded); fold f trains on the other folds and the other benchmarks, never on a
 *   question whose normalised text is one of fold f's (LongMemEval oracle holds LongMemEval S's questions).
 */
import { normaliseText } from '../../../classify/onnx/features.ts';
import type { BenchmarkQuestion } from '../train/combined.ts';
import { stratifiedFolds } from './folds.ts';

export interface Split {
  /** The held-out benchmark, or `<dataset> fold <f>`. */
  name: string;
  train: BenchmarkQuestion[];
  test: BenchmarkQuestion[];
}

export function benchmarksOf(questions: readonly BenchmarkQuestion[]): string[] {
  return [...new Set(questions.map((q) => q.benchmark))];
}

export function leaveOneBenchmarkOut(questions: readonly BenchmarkQuestion[]): Split[] {
  return benchmarksOf(questions).map((b) => ({
    name: b,
    train: questions.filter((q) => q.benchmark !== b),
    test: questions.filter((q) => q.benchmark === b),
  }));
}

/** k folds of `test`, each trained on the rest of `test` and on `pool` minus any question sharing a fold's text. */
export function kfoldWithPool(
  test: readonly BenchmarkQuestion[],
  pool: readonly BenchmarkQuestion[],
  k: number,
  seed: number,
): Split[] {
  const fold = stratifiedFolds(
    test.map((q) => q.gold),
    k,
    seed,
  );
  return Array.from({ length: k }, (_, f) => {
    const held = test.filter((_, i) => fold[i] === f);
    const heldText = new Set(held.map((q) => normaliseText(q.query.text)));
    const rest = test.filter((_, i) => fold[i] !== f);
    const restText = new Set(rest.map((q) => normaliseText(q.query.text)));
    const extra = pool.filter((q) => {
      const t = normaliseText(q.query.text);
      return !heldText.has(t) && !restText.has(t);
    });
    return { name: `${test[0]?.dataset ?? ''} fold ${f + 1}`, train: [...rest, ...extra], test: held };
  });
}
