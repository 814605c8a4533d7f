/**
 * The rules classifier as a prior for the linear model: weights that reproduce the rules' probabilities
 * (src/classify/rules.ts: p = softmax(beta · cue counts), the default type factual given `defaultPrior`) on a
 * features.ts row with cues — each cue's entry gets weight `beta` on its own type, the factual bias beta ·
 * defaultPrior, every n-gram weight 0. Training starts there and its L2 penalty pulls towards it (train.ts `prior`),
 * so the model departs from the hand-written cues only as far as the data of every training benchmark pushes it:
 * phrasing that one benchmark has and the others lack cannot outweigh a cue cheaply.
 */
import { featureWidth, specCues, type FeatureSpec } from '../../../classify/onnx/features.ts';
import { RulesOptionsSchema } from '../../../classify/rules.ts';
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';

export function rulesPrior(spec: FeatureSpec, scale = 1): { weights: Float64Array; bias: Float64Array } {
  const { beta, defaultPrior, defaultType } = RulesOptionsSchema.parse({});
  const K = ADAPT_TYPES.length;
  const weights = new Float64Array(featureWidth(spec) * K);
  specCues(spec).forEach((id, i) => {
    const type = id.slice(0, id.indexOf(':')) as AdaptType;
    const k = ADAPT_TYPES.indexOf(type);
    if (k < 0) throw new Error(`rulesPrior: cue ${id} names no type`);
    weights[(spec.dim + i) * K + k] = beta * scale;
  });
  const bias = new Float64Array(K);
  bias[ADAPT_TYPES.indexOf(defaultType)] = beta * defaultPrior * scale;
  return { weights, bias };
}

/**
 * Per example, the log of its benchmark's class prior in the (weighted) training set, add-one smoothed — the training
 * logit offsets of `Recipe.priorCorrection` (train.ts `offsets`). A benchmark without a type (one with no update or
 * abstention questions) gives that type a very low prior, so its questions need not push it down through the
 * weights; at test time no offset is added: the uniform prior.
 */
export function benchmarkLogPriors(
  items: readonly { benchmark: string; gold: AdaptType }[],
  weights: readonly number[],
): number[][] {
  const K = ADAPT_TYPES.length;
  const mass = new Map<string, number[]>();
  items.forEach((q, i) => {
    const m = mass.get(q.benchmark) ?? new Array<number>(K).fill(0);
    m[ADAPT_TYPES.indexOf(q.gold)]! += weights[i] ?? 1;
    mass.set(q.benchmark, m);
  });
  const logs = new Map<string, number[]>();
  for (const [b, m] of mass) {
    const total = m.reduce((a, x) => a + x, 0);
    const n = items.filter((q) => q.benchmark === b).length;
    // Add-one smoothing in counts, expressed in the weights' scale.
    const one = total / n;
    logs.set(
      b,
      m.map((x) => Math.log((x + one) / (total + K * one))),
    );
  }
  return items.map((q) => logs.get(q.benchmark)!);
}
