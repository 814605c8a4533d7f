/**
 * Runs a classifier over labelled questions and scores it. Three protocols, so a trained model is never tested on
 * its own training questions:
 *  - `as-is`: a fixed classifier (rules, llm, rules+llm, a given ONNX file, or the oracle: gold type);
 *  - `kfold`: train the hashed ONNX model on k−1 stratified folds, export it, load the exported file through
 *    onnxruntime-node and classify the held-out fold (every question is predicted exactly once);
 *  - `cross-dataset`: train on all of one dataset, test on all of another.
 * Latency is wall time per `classify` call (questions run one at a time unless `concurrency` says otherwise).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import type { CallRecord, Classifier, Ctx } from '../../../core/interfaces.ts';
import type { LlmProvider } from '../../../core/llm.ts';
import { errorMessage, InputError, ServiceCallError } from '../../../core/errors.ts';
import { HashedOnnxClassifier } from '../../../classify/onnx/hashed-classifier.ts';
import { writeLinearModel } from '../train/export.ts';
import { trainLinear, type TrainOptions } from '../train/train.ts';
import type { Classification, ProbSource } from '../../../classify/result.ts';
import { matchCues } from '../../../classify/rules.ts';
import { computeMetrics, percentile } from './metrics.ts';
import { stratifiedFolds } from './folds.ts';
import type { LabelledQuestion } from './questions.ts';

export type { AbstentionReport, EvalResult, Prediction, Protocol } from '../../../store/classifier-eval-types.ts';
import type { AbstentionReport, EvalResult, Prediction, Protocol } from '../../../store/classifier-eval-types.ts';

export interface RunOptions {
  concurrency?: number;
  llm?: LlmProvider;
  /** Fold number recorded on each prediction (k-fold). */
  fold?: number | null;
  seed?: number;
}

/** Classifies each question, timing each call. Errors are rethrown naming the question. */
export async function predictAll(
  classifier: Classifier,
  questions: readonly LabelledQuestion[],
  opts: RunOptions = {},
): Promise<Prediction[]> {
  const limit = pLimit(opts.concurrency ?? 1);
  return Promise.all(
    questions.map((q, i) =>
      limit(async () => {
        const calls: CallRecord[] = [];
        const ctx: Ctx = { seed: (opts.seed ?? 42) + i, calls, ...(opts.llm ? { llm: opts.llm } : {}) };
        const t0 = performance.now();
        let r: Classification;
        try {
          r = (await classifier.classify(q.query, ctx)) as Classification;
        } catch (err) {
          const message = `classifier ${classifier.name} failed on question ${q.query.id}: ${errorMessage(err)}`;
          // A service that failed (the LLM endpoint) or unusable output (checked.ts) is the user's to fix: one line;
          // anything else is a bug.
          if (err instanceof InputError) throw new InputError(message);
          throw err instanceof ServiceCallError
            ? new ServiceCallError(message, { cause: err })
            : new Error(message, { cause: err });
        }
        const latencyMs = performance.now() - t0;
        return {
          questionId: q.query.id,
          dataset: q.dataset,
          fold: opts.fold ?? null,
          gold: q.gold,
          nativeType: q.nativeType,
          isAbstention: q.isAbstention,
          predicted: r.type,
          probs: r.probs,
          source: r.source ?? 'model',
          route: r.route ?? null,
          latencyMs,
        } satisfies Prediction;
      }),
    ),
  );
}

export function abstentionReport(
  questions: readonly LabelledQuestion[],
  predictions: readonly Prediction[],
): AbstentionReport {
  const predicted = new Map(predictions.map((p) => [p.questionId, p.predicted]));
  let n = 0;
  let flagged = 0;
  let withSurfaceCue = 0;
  let cueOnOthers = 0;
  for (const q of questions) {
    const cue = matchCues(q.query.text).scores.abstention > 0;
    if (q.gold === 'abstention') {
      n += 1;
      if (predicted.get(q.query.id) === 'abstention') flagged += 1;
      if (cue) withSurfaceCue += 1;
    } else if (cue) cueOnOthers += 1;
  }
  return { n, flagged, withSurfaceCue, cueOnOthers };
}

export interface ScoreInput {
  classifier: string;
  label: string;
  upperBound?: boolean;
  dataset: string;
  protocol: Protocol;
  trainDataset?: string | null;
  folds?: number | null;
  seed?: number | null;
  routes?: { rules: number; llm: number } | null;
}

/** Scores predictions (aligned with `questions`) into an EvalResult. */
export function scoreEval(
  spec: ScoreInput,
  questions: readonly LabelledQuestion[],
  predictions: Prediction[],
): EvalResult {
  const metrics = computeMetrics(predictions.map((p) => ({ gold: p.gold, predicted: p.predicted })));
  const withoutAbstention = computeMetrics(
    predictions.filter((p) => p.gold !== 'abstention').map((p) => ({ gold: p.gold, predicted: p.predicted })),
  );
  const lat = predictions.map((p) => p.latencyMs);
  const sources: Partial<Record<ProbSource, number>> = {};
  for (const p of predictions) sources[p.source] = (sources[p.source] ?? 0) + 1;
  const createdAt = new Date().toISOString();
  const evalId = [
    spec.classifier,
    spec.dataset,
    spec.protocol,
    spec.trainDataset ?? '',
    spec.folds ?? '',
    createdAt,
  ].join('|');
  return {
    evalId,
    classifier: spec.classifier,
    label: spec.label,
    upperBound: spec.upperBound ?? false,
    dataset: spec.dataset,
    protocol: spec.protocol,
    trainDataset: spec.trainDataset ?? null,
    folds: spec.folds ?? null,
    seed: spec.seed ?? null,
    metrics,
    withoutAbstention,
    abstention: abstentionReport(questions, predictions),
    latency: {
      p50Ms: percentile(lat, 50),
      p95Ms: percentile(lat, 95),
      meanMs: lat.reduce((a, b) => a + b, 0) / Math.max(1, lat.length),
    },
    sources,
    routes: spec.routes ?? null,
    predictions,
    createdAt,
  };
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'adaptmr-onnx-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Trains on `train`, writes the ONNX file, loads it back and returns the loaded classifier. */
export async function trainAndLoad(
  train: readonly LabelledQuestion[],
  file: string,
  opts: Partial<TrainOptions> = {},
): Promise<HashedOnnxClassifier> {
  const model = trainLinear(
    train.map((q) => ({ text: q.query.text, type: q.gold })),
    opts,
  );
  await writeLinearModel(model, file);
  return HashedOnnxClassifier.load(file);
}

/** Stratified k-fold cross-validation of the trainable ONNX classifier. */
export async function kfoldOnnx(
  questions: readonly LabelledQuestion[],
  k: number,
  seed: number,
  train: Partial<TrainOptions> = {},
): Promise<EvalResult> {
  const fold = stratifiedFolds(
    questions.map((q) => q.gold),
    k,
    seed,
  );
  const byId = new Map<string, Prediction>();
  await withTempDir(async (dir) => {
    for (let f = 0; f < k; f++) {
      const trainSet = questions.filter((_, i) => fold[i] !== f);
      const testSet = questions.filter((_, i) => fold[i] === f);
      const clf = await trainAndLoad(trainSet, join(dir, `fold-${f}.onnx`), { seed, ...train });
      for (const p of await predictAll(clf, testSet, { fold: f, seed })) byId.set(p.questionId, p);
    }
  });
  const predictions = questions.map((q) => byId.get(q.query.id) as Prediction);
  const dataset = questions[0]?.dataset ?? '';
  return scoreEval(
    { classifier: 'onnx', label: `onnx (${k}-fold CV)`, dataset, protocol: 'kfold', folds: k, seed },
    questions,
    predictions,
  );
}

/** Train on one dataset, test on another. */
export async function crossDatasetOnnx(
  train: readonly LabelledQuestion[],
  test: readonly LabelledQuestion[],
  seed: number,
  opts: Partial<TrainOptions> = {},
): Promise<EvalResult> {
  const trainName = train[0]?.dataset ?? '';
  const testName = test[0]?.dataset ?? '';
  return withTempDir(async (dir) => {
    const clf = await trainAndLoad(train, join(dir, 'cross.onnx'), { seed, ...opts });
    const predictions = await predictAll(clf, test, { seed });
    return scoreEval(
      {
        classifier: 'onnx',
        label: `onnx (trained on ${trainName})`,
        dataset: testName,
        protocol: 'cross-dataset',
        trainDataset: trainName,
        seed,
      },
      test,
      predictions,
    );
  });
}
