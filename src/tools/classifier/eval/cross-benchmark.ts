/**
 * `adaptmr classifier eval --classifier onnx --protocol leave-one-benchmark-out --datasets <list> --json`, and the
 * k-fold protocol with other benchmarks in training (`--dataset <test> --folds k --datasets <list>`): builds the
 * combined set (train/combined.ts), the splits (lobo-splits.ts), runs them (lobo.ts) and assembles the JSON
 * (lobo-report.ts), with a learning curve (accuracy against training items) for leave-one-benchmark-out.
 */
import { InputError } from '../../../core/errors.ts';
import type { Prediction } from '../../../store/classifier-eval-types.ts';
import { combinedTrainingSet, type Language } from '../train/combined.ts';
import { argmaxOf, fitRecipe, predictQuestions, recipeName, type Recipe } from '../train/recipe.ts';
import { RowCache } from '../train/select.ts';
import { benchmarksOf, kfoldWithPool, leaveOneBenchmarkOut, type Split } from './lobo-splits.ts';
import { crossBenchmarkJson } from './lobo-report.ts';
import { runSplits, subsample, type SplitOutcome } from './lobo.ts';

export const LEARNING_CURVE_FRACTIONS = [0.1, 0.25, 0.5, 0.75, 1] as const;

export interface CrossBenchmarkRequest {
  protocol: 'leave-one-benchmark-out' | 'kfold';
  names: readonly string[];
  /** k-fold: the dataset whose questions are dealt into folds. */
  testDataset?: string;
  folds?: number;
  recipe: Recipe;
  seed: number;
  dataDir?: string | undefined;
  calibrate: boolean;
  learningCurve: boolean;
}

/** Mean held-out accuracy over the splits at each training fraction (TypeScript forward pass; no calibration). */
export function learningCurve(splits: readonly Split[], recipe: Recipe, seed: number, cache: RowCache) {
  return LEARNING_CURVE_FRACTIONS.map((fraction) => {
    const per = splits.map((s) => {
      const train = subsample(s.train, fraction, seed);
      const probs = predictQuestions(fitRecipe(train, recipe, seed, cache), s.test, cache);
      const right = s.test.filter((q, i) => argmaxOf(probs[i]!) === q.gold).length;
      return { benchmark: s.name, n_train: train.length, accuracy: right / Math.max(1, s.test.length) };
    });
    return {
      fraction,
      n_train_mean: per.reduce((a, p) => a + p.n_train, 0) / per.length,
      mean_accuracy: per.reduce((a, p) => a + p.accuracy, 0) / per.length,
      benchmarks: per,
    };
  });
}

export async function crossBenchmarkEval(req: CrossBenchmarkRequest): Promise<Record<string, unknown>> {
  const set = await combinedTrainingSet(req.names, req.dataDir);
  const language = new Map(set.questions.map((q) => [`${q.dataset}\u0000${q.query.id}`, q.language]));
  let splits: Split[];
  if (req.protocol === 'leave-one-benchmark-out') {
    if (benchmarksOf(set.questions).length < 2)
      throw new InputError('leave-one-benchmark-out needs questions of at least two benchmarks', '--datasets');
    splits = leaveOneBenchmarkOut(set.questions);
  } else {
    if (!req.testDataset) throw new InputError('k-fold with --datasets needs the test --dataset', '--dataset');
    const test = (await combinedTrainingSet([req.testDataset], req.dataDir)).questions;
    for (const q of test) language.set(`${q.dataset}\u0000${q.query.id}`, q.language);
    splits = kfoldWithPool(test, set.questions, req.folds ?? 5, req.seed);
  }
  const cache = new RowCache();
  const outcomes = await runSplits(splits, req.recipe, req.seed, { calibrate: req.calibrate, cache });
  const languageOf = (p: Prediction): Language => language.get(`${p.dataset}\u0000${p.questionId}`) ?? 'en';
  const head = {
    protocol: req.protocol,
    ...(req.protocol === 'kfold' ? { dataset: req.testDataset, folds: req.folds ?? 5 } : {}),
    recipe: { ...req.recipe, name: recipeName(req.recipe) },
    seed: req.seed,
    training_set: { sha256: set.sha256, n: set.questions.length, sources: set.sources, conflicts: set.conflicts },
  };
  const json = crossBenchmarkJson(outcomes, languageOf, head);
  if (req.protocol === 'kfold') {
    const merged: SplitOutcome = {
      split: req.testDataset ?? '',
      nTrain: Math.round(outcomes.reduce((a, o) => a + o.nTrain, 0) / outcomes.length),
      calibration: null,
      predictions: outcomes.flatMap((o) => o.predictions),
    };
    return { ...json, overall: crossBenchmarkJson([merged], languageOf, {}).benchmarks[0] };
  }
  return req.learningCurve ? { ...json, learning_curve: learningCurve(splits, req.recipe, req.seed, cache) } : json;
}
