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
