/** LongMemEval's question types → AdaptMR types (plan §2.2); abstention is told by the id's `_abs` suffix. */
import type { AdaptType } from '../../src/core/types.ts';

export const LONGMEMEVAL_TYPES: Record<string, AdaptType> = {
  'single-session-user': 'factual',
  'single-session-assistant': 'factual',
  'single-session-preference': 'factual',
  'temporal-reasoning': 'temporal',
  'knowledge-update': 'update',
  'multi-session': 'multi-hop',
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
