/**
 * Calibration of a cross-benchmark model on its training benchmarks only: inner leave-one-benchmark-out
 * over the training set gives every training question a probability from a model that never saw its benchmark
 * (a model of one benchmark: 3 stratified folds instead, so its threshold is an in-benchmark one);
 * on those, (1) a temperature T is fitted by minimising the negative log-likelihood (Guo et al. 2017, temperature
 * scaling; it keeps the argmax), then folded into the exported weights (logits / T); (2) the router's fallback
 * threshold is the top-probability cut that best separates right from wrong predictions: route by the type when the
 * top calibrated probability is ≥ t, fall back (fusion or the first stage) below it, t maximising
 * (right with p ≥ t) + (wrong with p < t). Nothing of a test benchmark enters either fit.
 */
import type { BenchmarkQuestion } from './combined.ts';
import { benchmarksOf, leaveOneBenchmarkOut, type Split } from '../eval/lobo-splits.ts';
import { stratifiedFolds } from '../eval/folds.ts';
import { ADAPT_TYPES } from '../../../core/types.ts';
import { fitRecipe, predictQuestions, type Recipe } from './recipe.ts';
import { RowCache, type TrainedModel } from './select.ts';

export interface ModelCalibration {
  /** How the held-out probabilities were made: by benchmark, or (one benchmark only) by 3 stratified folds. */
  inner: 'leave-one-benchmark-out' | '3-fold' | 'none';
  temperature: number;
  fallbackThreshold: number;
  /** On the inner out-of-benchmark predictions. */
  heldOut: { n: number; accuracy: number; nllBefore: number; nllAfter: number; fallbackShare: number };
}

/** Probabilities softened/sharpened by temperature T: softmax(log p / T). */
export function withTemperature(p: readonly number[], T: number): number[] {
  const z = p.map((x) => Math.log(Math.max(x, 1e-12)) / T);
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

function nll(probs: readonly number[][], gold: readonly number[], T: number): number {
  let s = 0;
  for (let i = 0; i < probs.length; i++) s -= Math.log(Math.max(withTemperature(probs[i]!, T)[gold[i]!]!, 1e-12));
  return s / Math.max(1, probs.length);
}

/** Golden-section search of log T in [−3, 3] (T from 0.05 to 20). */
export function fitTemperature(probs: readonly number[][], gold: readonly number[]): number {
  let a = -3;
  let b = 3;
  const r = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 60; i++) {
    const c = b - r * (b - a);
    const d = a + r * (b - a);
    if (nll(probs, gold, Math.exp(c)) < nll(probs, gold, Math.exp(d))) b = d;
    else a = c;
  }
  return Math.exp((a + b) / 2);
}

/** The cut on the top probability (grid 0.20 … 0.95) that best separates right from wrong; ties: the lower. */
export function fitFallbackThreshold(top: readonly number[], right: readonly boolean[]): number {
  let best = 0;
  let bestScore = -1;
  // Integer hundredths, so the cut compared here is exactly the number stored and compared by the router.
  for (let c = 20; c <= 95; c++) {
    const t = c / 100;
    let score = 0;
    for (let i = 0; i < top.length; i++) if (top[i]! >= t === right[i]) score += 1;
    if (score > bestScore) {
      bestScore = score;
      best = t;
    }
  }
  return best;
}

export function calibrateOnTraining(
  train: readonly BenchmarkQuestion[],
  recipe: Recipe,
  seed: number,
  cache: RowCache = new RowCache(),
): ModelCalibration {
  const probs: number[][] = [];
  const gold: number[] = [];
  const byBenchmark = benchmarksOf(train).length >= 2;
  for (const split of byBenchmark ? leaveOneBenchmarkOut(train) : innerFolds(train, seed)) {
    if (split.train.length === 0) continue;
    const model = fitRecipe(split.train, recipe, seed, cache);
    probs.push(...predictQuestions(model, split.test, cache));
    gold.push(...split.test.map((q) => ADAPT_TYPES.indexOf(q.gold)));
  }
  if (probs.length === 0) return { inner: 'none', temperature: 1, fallbackThreshold: 0, heldOut: emptyHeldOut() };
  const temperature = fitTemperature(probs, gold);
  const calibrated = probs.map((p) => withTemperature(p, temperature));
  const top = calibrated.map((p) => Math.max(...p));
  const right = calibrated.map((p, i) => p.indexOf(Math.max(...p)) === gold[i]);
  const fallbackThreshold = fitFallbackThreshold(top, right);
  return {
    inner: byBenchmark ? 'leave-one-benchmark-out' : '3-fold',
    temperature,
    fallbackThreshold,
    heldOut: {
      n: probs.length,
      accuracy: right.filter(Boolean).length / probs.length,
      nllBefore: nll(probs, gold, 1),
      nllAfter: nll(probs, gold, temperature),
      fallbackShare: top.filter((t) => t < fallbackThreshold).length / probs.length,
    },
  };
}

function innerFolds(train: readonly BenchmarkQuestion[], seed: number): Split[] {
  const fold = stratifiedFolds(
    train.map((q) => q.gold),
    3,
    seed + 1,
  );
  return [0, 1, 2].map((f) => ({
    name: `fold ${f + 1}`,
    train: train.filter((_, i) => fold[i] !== f),
    test: train.filter((_, i) => fold[i] === f),
  }));
}

function emptyHeldOut(): ModelCalibration['heldOut'] {
  return { n: 0, accuracy: 0, nllBefore: 0, nllAfter: 0, fallbackShare: 0 };
}

/** The model with its logits divided by T (the last layer's weights and bias scaled by 1/T). */
export function scaledByTemperature(model: TrainedModel, T: number): TrainedModel {
  const s = 1 / T;
  const scale = (a: Float32Array) => Float32Array.from(a, (x) => x * s);
  if ('w1' in model) return { ...model, w2: scale(model.w2), b2: scale(model.b2) };
  return { ...model, weights: scale(model.weights), bias: scale(model.bias) };
}
