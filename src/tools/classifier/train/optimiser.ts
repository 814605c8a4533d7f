/**
 * The pieces both trainers share (train.ts, the linear softmax; mlp.ts, the one-hidden-layer network): the seeded
 * Fisher–Yates shuffle (also used to deal cross-validation folds, eval/folds.ts), the mini-batch schedule and the
 * rows a batch touched, and Adam over one flat parameter vector (Kingma & Ba 2015, Algorithm 1, with the
 * bias-corrected moments; L2 added to the gradient of the parameters it applies to). One implementation, so a seed
 * gives the same weights whichever trainer runs.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import type { SparseRow } from '../../../classify/onnx/features.ts';

/** Shuffles `items` in place with `rng` (Fisher–Yates, from the end). */
export function shuffleInPlace<T>(items: T[], rng: RandomGenerator): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    const t = items[i] as T;
    items[i] = items[j] as T;
    items[j] = t;
  }
}

/**
 * The mini-batch schedule both trainers share: every epoch shuffles the examples with `rng`, then yields them in
 * batches of `batchSize`. (The shuffle's swaps depend only on the length and `rng`, so the order is the one a shuffle
 * of their indices gives.)
 */
export function* miniBatches<T>(
  examples: readonly T[],
  epochs: number,
  batchSize: number,
  rng: RandomGenerator,
): Generator<readonly T[]> {
  const order = [...examples];
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleInPlace(order, rng);
    for (let start = 0; start < order.length; start += batchSize) yield order.slice(start, start + batchSize);
  }
}

/**
 * Feature rows with their label indices and example weights (1 when none are given), as the trainers iterate them;
 * one label (and weight) per row, or the caller erred.
 */
export function labelled(
  xs: readonly SparseRow[],
  ys: readonly number[],
  weights?: readonly number[],
): { x: SparseRow; y: number; w: number; i: number }[] {
  if (xs.length !== ys.length) throw new Error(`trainer: ${xs.length} feature rows but ${ys.length} labels`);
  if (weights && weights.length !== xs.length)
    throw new Error(`trainer: ${xs.length} feature rows but ${weights.length} weights`);
  return xs.map((x, i) => ({ x, y: ys[i]!, w: weights?.[i] ?? 1, i }));
}

/**
 * The feature rows one batch touched, each listed once, for lazy updates (only the rows of features that occur in the
 * batch are updated): a row is stamped with the batch's number when first touched.
 */
export class TouchedRows {
  readonly rows: number[] = [];
  private readonly stamp: Int32Array;
  private batch = 0;

  constructor(width: number) {
    this.stamp = new Int32Array(width).fill(-1);
  }

  nextBatch(): void {
    this.batch += 1;
    this.rows.length = 0;
  }

  touch(row: number): void {
    if (this.stamp[row] !== this.batch) {
      this.stamp[row] = this.batch;
      this.rows.push(row);
    }
  }
}

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPS = 1e-8;

/** Adam over `theta`; gradients are accumulated into `grad` by the caller and consumed (zeroed) by `update`. */
export class Adam {
  readonly grad: Float64Array;
  private readonly m: Float64Array;
  private readonly v: Float64Array;
  private t = 0;
  private c1 = 1;
  private c2 = 1;

  /**
   * `centre`: the L2 penalty pulls towards these values instead of 0 (a Gaussian prior centred on them, e.g. the
   * rules' weights, prior.ts); none = towards 0.
   */
  constructor(
    private readonly theta: Float64Array,
    private readonly learningRate: number,
    private readonly l2: number,
    private readonly centre?: Float64Array,
  ) {
    this.grad = new Float64Array(theta.length);
    this.m = new Float64Array(theta.length);
    this.v = new Float64Array(theta.length);
  }

  /** Starts an optimiser step (the bias corrections of step t). */
  nextStep(): void {
    this.t += 1;
    this.c1 = 1 - BETA1 ** this.t;
    this.c2 = 1 - BETA2 ** this.t;
  }

  /** Updates parameter `q` from its accumulated gradient (plus L2 when `decay`), then zeroes that gradient. */
  update(q: number, decay: boolean): void {
    const g =
      (this.grad[q] as number) +
      (decay ? this.l2 * ((this.theta[q] as number) - (this.centre ? (this.centre[q] as number) : 0)) : 0);
    this.grad[q] = 0;
    const mq = BETA1 * (this.m[q] as number) + (1 - BETA1) * g;
    const vq = BETA2 * (this.v[q] as number) + (1 - BETA2) * g * g;
    this.m[q] = mq;
    this.v[q] = vq;
    this.theta[q] = (this.theta[q] as number) - (this.learningRate * (mq / this.c1)) / (Math.sqrt(vq / this.c2) + EPS);
  }
}
