/**
 * The contract of a hashed n-gram ONNX classifier file, shared by its writer (`adaptmr classifier train`,
 * src/tools/classifier/train) and its reader (hashed-classifier.ts): the `metadata_props` keys that carry the
 * feature spec and label order, the model kind, and the softmax both sides apply.
 */

/** Metadata keys the loader reads back. */
export const META_KIND = 'adaptmr.kind';
export const META_FEATURES = 'adaptmr.features';
export const META_LABELS = 'adaptmr.labels';
export const META_TRAINED_ON = 'adaptmr.trained_on';
/**
 * The question ids a model was trained on, when it was trained on a split of a dataset (`classifier train --split
 * calibration`): a method using the model leaves them out of evaluation, as it does a calibration split's.
 */
export const META_TRAINING_IDS = 'adaptmr.training_question_ids';
/**
 * A model trained on a combined training set (`classifier train --datasets`): JSON with the set's sha256 (over its
 * benchmark, dataset, id, type and normalised text per question, src/tools/classifier/train/combined.ts), its size
 * and sources, the recipe and the calibration.
 */
export const META_TRAINING_SET = 'adaptmr.training_set';
/**
 * The single router's fallback threshold fitted on the training benchmarks (calibrate-model.ts): below this top
 * probability the router falls back (src/routing/router.ts `fallback`).
 */
export const META_FALLBACK_THRESHOLD = 'adaptmr.fallback_threshold';
export const KIND_HASHED_LINEAR = 'hashed-ngram-softmax-regression';
/** One hidden ReLU layer over the same features (the graph differs; input and output are the same). */
export const KIND_HASHED_MLP = 'hashed-feature-mlp';
/** Kinds whose input is the features.ts vector and whose output is the probabilities. */
export const HASHED_KINDS: readonly string[] = [KIND_HASHED_LINEAR, KIND_HASHED_MLP];

/** Numerically stable softmax (max subtracted before exp). */
export function softmax(logits: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i] as number);
  const exps = Array.from({ length: logits.length }, (_, i) => Math.exp((logits[i] as number) - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}
