/**
 * Trains the multinomial logistic regression (softmax regression) behind the `onnx` classifier, in plain
 * TypeScript: hashed sparse features (features.ts), cross-entropy loss with an L2 penalty, mini-batch Adam
 * (Kingma & Ba 2015, Algorithm 1, with bias correction). Weights start at zero (the loss is convex, so no random
 * start is needed); the only randomness is the per-epoch shuffle, drawn from a seeded pure-rand generator, so a
 * given seed and data give bit-identical weights.
 *
 * `lazy: true` updates, per mini-batch, only the weights of the features present in the batch (and the biases),
 * with their L2 term — "lazy" Adam as in TensorFlow Addons' `LazyAdam`: moments of absent features are not decayed
 * and bias correction uses the global step. A question has a few hundred active features out of `dim`, so this is
 * ~10× cheaper per step, which nested cross-validation needs; the dense update stays the default for v1 models.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { Adam, labelled, miniBatches, TouchedRows } from './optimiser.ts';
import { softmax } from '../../../classify/onnx/model-format.ts';
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';
import {
  DEFAULT_FEATURE_SPEC,
  featureWidth,
  sparseRow,
  type FeatureSpec,
  type SparseRow,
} from '../../../classify/onnx/features.ts';

export interface TrainOptions {
  epochs: number;
  batchSize: number;
  learningRate: number;
  /** L2 penalty on the weights (not the bias), per example: loss = CE + l2/2·‖W‖². */
  l2: number;
  seed: number;
  spec: FeatureSpec;
  /** Sparse ("lazy") Adam updates; see the file header. */
  lazy: boolean;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  epochs: 30,
  batchSize: 32,
  learningRate: 0.05,
  // Chosen by 5-fold CV on LoCoMo only, from {1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2} (LoCoMo accuracy 49.9, 53.0, 60.9,
  // 61.1, 54.7, 47.4 %); LongMemEval was not consulted, so its figures stay clean (README "Classifier evaluation").
  l2: 3e-3,
  seed: 42,
  spec: DEFAULT_FEATURE_SPEC,
  lazy: false,
};

export interface LabelledText {
  text: string;
  type: AdaptType;
}

/** A trained linear model: `weights` is [dim, labels] row-major (the ONNX MatMul layout), `bias` [labels]. */
export interface LinearModel {
  spec: FeatureSpec;
  labels: readonly AdaptType[];
  weights: Float32Array;
  bias: Float32Array;
  /** Provenance written into the ONNX metadata. */
  trainedOn: { n: number; counts: Record<AdaptType, number>; options: Omit<TrainOptions, 'spec'> };
  /** The question ids of a split the model was trained on (`--split`), written to its metadata. */
  trainingIds?: string[];
}

export function trainLinear(examples: readonly LabelledText[], opts: Partial<TrainOptions> = {}): LinearModel {
  const o: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...opts };
  if (examples.length === 0) throw new Error('trainLinear: no training examples');
  return trainLinearRows(
    examples.map((e) => sparseRow(e.text, o.spec)),
    examples.map((e) => e.type),
    o,
  );
}

/**
 * The same, from feature rows already computed with `opts.spec` (cross-validation computes them once). `weights`
 * scales each example's loss (class- or benchmark-balanced training, train/balance.ts); none = every example 1.
 * `offsets` adds a fixed vector to an example's logits during training only (logit adjustment, Menon et al. 2021:
 * log of its benchmark's class prior, train/prior.ts `benchmarkLogPriors`), so the weights learn what the text says
 * beyond that prior and the exported model predicts as if every type were equally likely.
 */
export function trainLinearRows(
  xs: readonly SparseRow[],
  types: readonly AdaptType[],
  opts: Partial<TrainOptions> = {},
  weights?: readonly number[],
  prior?: { weights: Float64Array; bias: Float64Array },
  offsets?: readonly (readonly number[])[],
): LinearModel {
  const o: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...opts };
  if (xs.length === 0) throw new Error('trainLinear: no training examples');
  const labels = ADAPT_TYPES;
  const K = labels.length;
  const D = featureWidth(o.spec);
  const ys = types.map((t) => labels.indexOf(t));
  const counts = Object.fromEntries(labels.map((l) => [l, 0])) as Record<AdaptType, number>;
  for (const t of types) counts[t] += 1;

  // Parameters: W [D, K] and b [K] in one vector so Adam treats them uniformly; b sits after W.
  const P = D * K + K;
  const theta = new Float64Array(P);
  // With a prior (prior.ts) the weights start at it and L2 pulls towards it rather than towards 0.
  let centre: Float64Array | undefined;
  if (prior) {
    centre = new Float64Array(P);
    centre.set(prior.weights, 0);
    centre.set(prior.bias, D * K);
    theta.set(centre);
  }
  const adam = new Adam(theta, o.learningRate, o.l2, centre);
  const grad = adam.grad;
  const rng = xoroshiro128plus(o.seed);
  // Lazy mode: only the feature rows the current batch touched are updated.
  const touched = new TouchedRows(D);
  const logits = new Float64Array(K);

  for (const batch of miniBatches(labelled(xs, ys, weights), o.epochs, o.batchSize, rng)) {
    touched.nextBatch();
    for (const { x, y, w, i } of batch) {
      const nnz = x.indices.length;
      if (o.lazy) for (let j = 0; j < nnz; j++) touched.touch(x.indices[j] as number);
      for (let k = 0; k < K; k++) {
        let z = theta[D * K + k] as number;
        for (let j = 0; j < nnz; j++)
          z += (theta[(x.indices[j] as number) * K + k] as number) * (x.values[j] as number);
        logits[k] = z + (offsets?.[i]?.[k] ?? 0);
      }
      const probs = softmax(logits);
      for (let k = 0; k < K; k++) {
        const g = (((probs[k] as number) - (k === y ? 1 : 0)) * w) / batch.length;
        grad[D * K + k] = (grad[D * K + k] as number) + g;
        for (let j = 0; j < nnz; j++) {
          const q = (x.indices[j] as number) * K + k;
          grad[q] = (grad[q] as number) + g * (x.values[j] as number);
        }
      }
    }
    // Weights get L2, biases not; an update consumes its gradient, so every batch starts from zero.
    adam.nextStep();
    if (o.lazy) {
      for (const i of touched.rows) for (let k = 0; k < K; k++) adam.update(i * K + k, true);
      for (let k = 0; k < K; k++) adam.update(D * K + k, false);
    } else {
      for (let p = 0; p < P; p++) adam.update(p, p < D * K);
    }
  }
  const { spec, ...rest } = o;
  return {
    spec,
    labels,
    weights: Float32Array.from(theta.subarray(0, D * K)),
    bias: Float32Array.from(theta.subarray(D * K)),
    trainedOn: { n: xs.length, counts, options: rest },
  };
}

/** The same forward pass as the ONNX graph, in TypeScript, so tests can check the exported file against it. */
export function predictLinear(model: LinearModel, text: string): number[] {
  return predictLinearRow(model, sparseRow(text, model.spec));
}

export function predictLinearRow(model: LinearModel, x: SparseRow): number[] {
  const K = model.labels.length;
  const z = Array.from({ length: K }, (_, k) => {
    let s = model.bias[k] as number;
    for (let j = 0; j < x.indices.length; j++)
      s += (model.weights[(x.indices[j] as number) * K + k] as number) * (x.values[j] as number);
    return s;
  });
  return softmax(z);
}
