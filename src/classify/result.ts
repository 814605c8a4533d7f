/**
 * What this folder's classifiers return: the `Classifier` result (type + a probability per AdaptMR type) plus
 * where the probabilities came from, so evaluation can report it per question.
 */
import { ADAPT_TYPES, type AdaptType } from '../core/types.ts';

/** How the probabilities were obtained. */
export type ProbSource =
  | 'rules' // soft scores from cue counts (rules.ts)
  | 'calibrated' // the rules' cue counts through a map fitted on a held-out calibration split (calibration.ts)
  | 'model' // an ONNX model's softmax output
  | 'logprobs' // the LLM's first-token log-probabilities over type labels
  | 'stated' // the distribution the LLM wrote in its reply
  | 'one-hot' // only a label was available
  | 'gold'; // the oracle (gold type)

export interface Classification {
  type: AdaptType;
  probs: Record<AdaptType, number>;
  source: ProbSource;
  /** For rules+llm: which layer decided. */
  route?: 'rules' | 'llm';
}

/** Argmax with ties broken by ADAPT_TYPES order, so results never depend on object key order. */
export function argmaxType(probs: Record<AdaptType, number>): AdaptType {
  let best: AdaptType = ADAPT_TYPES[0];
  for (const t of ADAPT_TYPES) if (probs[t] > probs[best]) best = t;
  return best;
}

export function probsFromArray(values: ArrayLike<number>, labels: readonly AdaptType[]): Record<AdaptType, number> {
  const probs = Object.fromEntries(ADAPT_TYPES.map((t) => [t, 0])) as Record<AdaptType, number>;
  labels.forEach((t, i) => {
    probs[t] += values[i] ?? 0;
  });
  return probs;
}

/** Scales non-negative scores to sum 1; undefined when they are not usable (negative, NaN, all zero). */
export function normalise(scores: Record<AdaptType, number>): Record<AdaptType, number> | undefined {
  const values = ADAPT_TYPES.map((t) => scores[t]);
  if (values.some((v) => !Number.isFinite(v) || v < 0)) return undefined;
  const sum = values.reduce((a, b) => a + b, 0);
  if (sum <= 0) return undefined;
  return Object.fromEntries(ADAPT_TYPES.map((t) => [t, scores[t] / sum])) as Record<AdaptType, number>;
}
