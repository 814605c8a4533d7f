/**
 * The shipped default classifier, calibration/classifier-default.onnx (`classifier: { name: onnx }` without a
 * model): the cross-benchmark recipe (recipe.ts DEFAULT_RECIPE) trained on every benchmark with typed questions and
 * the written questions, by the one command below. Its metadata names the training set by content hash
 * (`adaptmr.training_set`); default-model.test.ts rebuilds it and compares predictions on fixture questions.
 * Questions of these benchmarks are its training data: a run on them with this model is in-distribution.
 */
import { createHash } from 'node:crypto';
import { datasetEntry, datasetNames } from '../../../core/benchmarks-installed.ts';
import type { Classifier } from '../../../core/interfaces.ts';
import { ADAPT_TYPES } from '../../../core/types.ts';
import { EN_DATASET, ZH_DATASET } from './zh-questions.ts';

/**
 * Its training sources: every installed benchmark's datasets, each set of questions once (a dataset that holds
 * another's questions, `sameQuestionsAs`, is left out), in registry order, then the written Chinese and English
 * questions. A new benchmark joins the set: default-model.test.ts then fails until the model is rebuilt with it.
 */
export function defaultModelSources(): string[] {
  const own = datasetNames().filter((n) => !datasetEntry(n)?.dataset.sameQuestionsAs);
  return [...own, ZH_DATASET, EN_DATASET];
}

export const DEFAULT_MODEL_FILE = 'calibration/classifier-default.onnx';
export function defaultModelCommand(): string {
  return `adaptmr classifier train --datasets ${defaultModelSources().join(',')} --out ${DEFAULT_MODEL_FILE}`;
}

/** Fixture questions for the rebuild check: both languages, every type, none from a benchmark. */
export const FIXTURE_QUESTIONS: readonly string[] = [
  'When did I move to Berlin?',
  'Where do I work now?',
  'How many books did I read in total?',
  'What is the name of my dog?',
  'Did I ever mention my blood type?',
  '我是先换的工作还是先搬的家？',
  '我现在住在哪里？',
  '我一共养过几只宠物？',
  '我的猫叫什么名字？',
  '我有没有跟你说过我的血型？',
];

/** sha256 over each fixture's predicted type and probabilities rounded to 4 decimals (float noise stays out). */
export async function predictionHash(clf: Classifier, questions: readonly string[] = FIXTURE_QUESTIONS) {
  const h = createHash('sha256');
  for (const [i, text] of questions.entries()) {
    const r = await clf.classify(
      { id: `fixture-${i}`, text, askedAt: '2024-01-01T00:00:00.000Z' },
      { seed: i, calls: [] },
    );
    h.update(`${r.type}\t${ADAPT_TYPES.map((t) => (r.probs[t] ?? 0).toFixed(4)).join(',')}\n`);
  }
  return h.digest('hex');
}
