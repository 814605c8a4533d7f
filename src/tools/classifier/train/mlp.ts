/**
 * A small multilayer perceptron over the same feature rows as the linear model (features.ts `sparseRow`): one
 * hidden ReLU layer of `hidden` units, softmax output, cross-entropy (weighted per example when weights are given,
 * as balance.ts makes them) + L2 on both weight matrices, mini-batch Adam.
 * The first layer is updated lazily (only the rows of the features present in a mini-batch, as train.ts `lazy`,
 * TensorFlow Addons' LazyAdam); the hidden and output layers are dense and updated every step. Weights start from a
 * seeded uniform Glorot initialisation (Glorot & Bengio 2010, with fan-in = the number of features a row typically
 * has, not the hashed width, since rows are sparse and about unit length) drawn from pure-rand's xoroshiro128+, and
 * the per-epoch shuffle comes from the same generator, so a given seed and data give bit-identical weights.
 *
 * The ONNX graph is MatMul(W1) → Add(b1) → Relu → MatMul(W2) → Add(b2) → Softmax (export.ts); `predictMlpRow` is
 * the same forward pass in TypeScript.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { softmax } from '../../../classify/onnx/model-format.ts';
import { featureWidth, type FeatureSpec, type SparseRow } from '../../../classify/onnx/features.ts';
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';
import { DEFAULT_TRAIN_OPTIONS, type TrainOptions } from './train.ts';
import { Adam, labelled, miniBatches, TouchedRows } from './optimiser.ts';

export interface MlpOptions extends Omit<TrainOptions, 'lazy'> {
  hidden: number;
}

/** W1 [D, H], W2 [H, K] row-major (the ONNX MatMul layouts). */
export interface MlpModel {
  kind: 'mlp';
  spec: FeatureSpec;
  labels: readonly AdaptType[];
  hidden: number;
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
  trainedOn: { n: number; counts: Record<AdaptType, number>; options: Omit<MlpOptions, 'spec'> };
  /** The question ids of a split the model was trained on (`--split`), written to its metadata. */
  trainingIds?: string[];
}

const U30 = 2 ** 30;

/** Offsets of the parameter vector: W1 [D·H] at 0, b1 [H] at oB1, W2 [H·K] at oW2, b2 [K] at oB2. */
interface Layout {
  H: number;
  K: number;
  oB1: number;
  oW2: number;
  oB2: number;
}
/** Buffers reused across examples: hidden pre-activation and activation, logits and their and a's gradients. */
interface Scratch {
  a: Float64Array;
  h: Float64Array;
  z: Float64Array;
  dz: Float64Array;
  da: Float64Array;
}

/** One example's forward pass and its cross-entropy gradient (scaled by its weight / batch size) added into `grad`. */
function backprop(
  x: SparseRow,
  y: number,
  weight: number,
  batchSize: number,
  theta: Float64Array,
  grad: Float64Array,
  L: Layout,
  scratch: Scratch,
  touched: TouchedRows,
): void {
  const { H, K, oB1, oW2, oB2 } = L;
  const { a, h, z, dz, da } = scratch;
  const nnz = x.indices.length;
  for (let k = 0; k < H; k++) a[k] = theta[oB1 + k] as number;
  for (let j = 0; j < nnz; j++) {
    const i = x.indices[j] as number;
    const xv = x.values[j] as number;
    touched.touch(i);
    const base = i * H;
    for (let k = 0; k < H; k++) a[k] = (a[k] as number) + (theta[base + k] as number) * xv;
  }
  for (let k = 0; k < H; k++) h[k] = Math.max(0, a[k] as number);
  for (let c = 0; c < K; c++) {
    let s = theta[oB2 + c] as number;
    for (let k = 0; k < H; k++) s += (h[k] as number) * (theta[oW2 + k * K + c] as number);
    z[c] = s;
  }
  const p = softmax(z);
  for (let c = 0; c < K; c++) dz[c] = (((p[c] as number) - (c === y ? 1 : 0)) * weight) / batchSize;
  for (let k = 0; k < H; k++) {
    let s = 0;
    for (let c = 0; c < K; c++) {
      const q = oW2 + k * K + c;
      s += (theta[q] as number) * (dz[c] as number);
      grad[q] = (grad[q] as number) + (h[k] as number) * (dz[c] as number);
    }
    da[k] = (a[k] as number) > 0 ? s : 0;
    grad[oB1 + k] = (grad[oB1 + k] as number) + (da[k] as number);
  }
  for (let c = 0; c < K; c++) grad[oB2 + c] = (grad[oB2 + c] as number) + (dz[c] as number);
  for (let j = 0; j < nnz; j++) {
    const base = (x.indices[j] as number) * H;
    const xv = x.values[j] as number;
    for (let k = 0; k < H; k++) grad[base + k] = (grad[base + k] as number) + (da[k] as number) * xv;
  }
}

export function trainMlpRows(
  xs: readonly SparseRow[],
  types: readonly AdaptType[],
  opts: Partial<MlpOptions> & { hidden: number },
  weights?: readonly number[],
): MlpModel {
  const o: MlpOptions = { ...DEFAULT_TRAIN_OPTIONS, ...opts };
  if (xs.length === 0) throw new Error('trainMlp: no training examples');
  const labels = ADAPT_TYPES;
  const K = labels.length;
  const H = o.hidden;
  const D = featureWidth(o.spec);
  const ys = types.map((t) => labels.indexOf(t));
  const counts = Object.fromEntries(labels.map((l) => [l, 0])) as Record<AdaptType, number>;
  for (const t of types) counts[t] += 1;

  const rng = xoroshiro128plus(o.seed);
  const uniform = (limit: number) => ((uniformInt(rng, 0, U30 - 1) / U30) * 2 - 1) * limit;
  // Parameters in one vector: W1 [D·H], b1 [H], W2 [H·K], b2 [K].
  const oB1 = D * H;
  const oW2 = oB1 + H;
  const oB2 = oW2 + H * K;
  const P = oB2 + K;
  const theta = new Float64Array(P);
  const meanNnz = xs.reduce((s, x) => s + x.indices.length, 0) / xs.length;
  const lim1 = Math.sqrt(6 / (meanNnz + H));
  for (let p = 0; p < oB1; p++) theta[p] = uniform(lim1);
  const lim2 = Math.sqrt(6 / (H + K));
  for (let p = oW2; p < oB2; p++) theta[p] = uniform(lim2);
  const adam = new Adam(theta, o.learningRate, o.l2);
  const grad = adam.grad;
  const touched = new TouchedRows(D);
  const L: Layout = { H, K, oB1, oW2, oB2 };
  const scratch: Scratch = {
    a: new Float64Array(H),
    h: new Float64Array(H),
    z: new Float64Array(K),
    dz: new Float64Array(K),
    da: new Float64Array(H),
  };

  for (const batch of miniBatches(labelled(xs, ys, weights), o.epochs, o.batchSize, rng)) {
    touched.nextBatch();
    for (const { x, y, w } of batch) backprop(x, y, w, batch.length, theta, grad, L, scratch, touched);
    adam.nextStep();
    for (const i of touched.rows) for (let k = 0; k < H; k++) adam.update(i * H + k, true);
    for (let q = oB1; q < oW2; q++) adam.update(q, false);
    for (let q = oW2; q < oB2; q++) adam.update(q, true);
    for (let q = oB2; q < P; q++) adam.update(q, false);
  }
  const { spec, ...rest } = o;
  return {
    kind: 'mlp',
    spec,
    labels,
    hidden: H,
    w1: Float32Array.from(theta.subarray(0, oB1)),
    b1: Float32Array.from(theta.subarray(oB1, oW2)),
    w2: Float32Array.from(theta.subarray(oW2, oB2)),
    b2: Float32Array.from(theta.subarray(oB2)),
    trainedOn: { n: xs.length, counts, options: rest },
  };
}

/** The ONNX graph's forward pass in TypeScript (float32 weights, float64 sums). */
export function predictMlpRow(model: MlpModel, x: SparseRow): number[] {
  const H = model.hidden;
  const K = model.labels.length;
  const h = Array.from(model.b1, Number);
  for (let j = 0; j < x.indices.length; j++) {
    const base = (x.indices[j] as number) * H;
    const xv = x.values[j] as number;
    for (let k = 0; k < H; k++) h[k] = (h[k] as number) + (model.w1[base + k] as number) * xv;
  }
  for (let k = 0; k < H; k++) h[k] = Math.max(0, h[k] as number);
  const z = Array.from({ length: K }, (_, c) => {
    let s = model.b2[c] as number;
    for (let k = 0; k < H; k++) s += (h[k] as number) * (model.w2[k * K + c] as number);
    return s;
  });
  return softmax(z);
}
