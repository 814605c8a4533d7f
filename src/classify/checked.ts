/**
 * Every classifier the registry creates answers with usable probabilities or fails: a reply whose probabilities are
 * NaN, negative, above 1 or not summing to 1 (a model with broken weights, an LLM's garbled scores) is an error
 * naming the classifier and the question — in `classify`, in `classifier eval` and in a run alike — never a
 * prediction that is scored or routed. (The AdaptMR method checks the same for classifiers given to it directly.)
 */
import { InputError } from '../core/errors.ts';
import type { Classifier } from '../core/interfaces.ts';
import { invalidTypeProbs } from '../core/types.ts';

export function checkedClassifier<C extends Classifier>(classifier: C, where?: string): C {
  const classify = classifier.classify.bind(classifier);
  classifier.classify = async (query, ctx) => {
    const result = await classify(query, ctx);
    const bad = invalidTypeProbs(result.probs);
    if (bad)
      throw new InputError(
        `classifier ${classifier.name} gave unusable probabilities (${bad}) for question ${query.id}`,
        where,
      );
    return result;
  };
  return classifier;
}
