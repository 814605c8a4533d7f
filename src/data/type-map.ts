/**
 * Native question labels → AdaptMR types (docs/design.md §2). The native label is always kept beside the mapped type
 * so any other mapping can be recomputed from the results.
 */
import type { AdaptType, ExtraTypeLabel } from '../core/types.ts';

export const LONGMEMEVAL_TYPES: Record<string, AdaptType> = {
  'single-session-user': 'factual',
  'single-session-assistant': 'factual',
  'single-session-preference': 'factual',
  'temporal-reasoning': 'temporal',
  'knowledge-update': 'update',
  'multi-session': 'multi-hop',
};

/**
 * LoCoMo category numbers as the data and LoCoMo's own `task_eval/evaluation.py` use them (docs/datasets.md §1):
 * 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial.
 */
export const LOCOMO_CATEGORIES: Record<number, AdaptType> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'factual',
  4: 'factual',
  5: 'abstention',
};

/** LongMemEval marks abstention only by the `_abs` suffix of `question_id` (its `question_type` stays the base type). */
export function longMemEvalType(
  questionId: string,
  questionType: string,
): { type: AdaptType; isAbstention: boolean } | undefined {
  const base = LONGMEMEVAL_TYPES[questionType];
  if (!base) return undefined;
  const isAbstention = questionId.endsWith('_abs');
  return { type: isAbstention ? 'abstention' : base, isAbstention };
}

/**
 * LoCoMo-Plus "Cognitive" items: implicit recall of a cue from a later statement with little shared wording; none
 * of the five types fits, so they are reported as their own type (`cognitive`, native type = `relation_type`). For
 * retrieval a cue is single-evidence recall, so the oracle router's nearest type is factual.
 */
export const LOCOMO_PLUS_TYPE: { type: AdaptType; reportAs: ExtraTypeLabel } = {
  type: 'factual',
  reportAs: 'cognitive',
};
