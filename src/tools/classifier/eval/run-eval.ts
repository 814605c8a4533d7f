/**
 * One entry point for `adaptmr classifier eval`, the evaluation script and tests: picks the protocol from the
 * classifier and flags (k-fold for the trainable ONNX model, cross-dataset when a training dataset is named, as-is
 * otherwise; the oracle is built here from gold and labelled as seeing gold).
 */
import { InputError } from '../../../core/errors.ts';
import type { LlmClient, LlmProvider } from '../../../core/llm.ts';
import type { AdaptType } from '../../../core/types.ts';
import { createOracleClassifier, ORACLE_LABEL, ORACLE_NAME } from '../../../classify/oracle.ts';
import { classifiers } from '../../../classify/registry.ts';
import { RulesLlmClassifier } from '../../../classify/rules-llm.ts';
import type { TrainOptions } from '../train/train.ts';
import { crossDatasetOnnx, kfoldOnnx, predictAll, scoreEval, type EvalResult } from './evaluate.ts';
import type { LabelledQuestion } from './questions.ts';

export interface EvaluateRequest {
  classifier: string;
  /** Registry options (e.g. `{ model }` for onnx). */
  options?: Record<string, unknown>;
  questions: readonly LabelledQuestion[];
  /** k-fold cross-validation (onnx only). */
  folds?: number;
  /** Cross-dataset: train the onnx model on these, test on `questions`. */
  trainQuestions?: readonly LabelledQuestion[];
  seed?: number;
  train?: Partial<TrainOptions>;
  llm?: { provider?: LlmProvider; client?: LlmClient };
  concurrency?: number;
}

export async function evaluateClassifier(req: EvaluateRequest): Promise<EvalResult> {
  const seed = req.seed ?? 42;
  const dataset = req.questions[0]?.dataset ?? '';
  if (req.questions.length === 0) throw new InputError('no questions to evaluate');
  if (req.classifier === ORACLE_NAME) {
    const gold = new Map<string, AdaptType>(req.questions.map((q) => [q.query.id, q.gold]));
    const predictions = await predictAll(createOracleClassifier(gold), req.questions, { seed });
    return scoreEval(
      { classifier: ORACLE_NAME, label: ORACLE_LABEL, upperBound: true, dataset, protocol: 'as-is', seed },
      req.questions,
      predictions,
    );
  }
  const options = req.options ?? {};
  if (req.classifier === 'onnx' && options.model === undefined) {
    if (req.folds !== undefined) return kfoldOnnx(req.questions, req.folds, seed, req.train);
    if (req.trainQuestions) return crossDatasetOnnx(req.trainQuestions, req.questions, seed, req.train);
    throw new InputError('onnx: give --folds k (k-fold), --train-dataset (cross-dataset) or --model (a trained file)');
  }
  if (req.folds !== undefined || req.trainQuestions) {
    throw new InputError(
      `--folds and --train-dataset apply to the trainable onnx classifier only, not "${req.classifier}"`,
    );
  }
  const clf = await classifiers.create(
    req.classifier,
    options,
    req.llm?.client ? { llm: req.llm.client } : {},
    '--classifier',
  );
  const isLlm = req.classifier === 'llm' || req.classifier === 'rules+llm';
  // A classifier calibrated on some questions (rules with calibrationFile) is scored on the others only.
  const excluded = clf.excludedQuestionIds;
  const questions = excluded ? req.questions.filter((q) => !excluded.has(q.query.id)) : req.questions;
  if (questions.length === 0)
    throw new InputError('every question was used to calibrate this classifier; nothing left to evaluate');
  const predictions = await predictAll(clf, questions, {
    seed,
    concurrency: req.concurrency ?? (isLlm ? 4 : 1),
    ...(req.llm?.provider ? { llm: req.llm.provider } : {}),
  });
  const label = req.classifier === 'onnx' ? `onnx (${String(options.model)})` : req.classifier;
  return scoreEval(
    {
      classifier: req.classifier,
      label,
      dataset,
      protocol: 'as-is',
      seed,
      routes: clf instanceof RulesLlmClassifier ? { ...clf.routeCounts } : null,
    },
    questions,
    predictions,
  );
}
