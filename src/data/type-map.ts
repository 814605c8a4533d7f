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
 * BEAM's ten abilities (docs/datasets.md §4.5). Good fits: information extraction → factual (one stated detail),
 * temporal reasoning → temporal (dates and durations between two events), knowledge update → update (the new value),
 * multi-session reasoning → multi-hop (facts spread over the chat), abstention → abstention (no evidence by design).
 * Partial fits: event ordering → temporal (the order of mentions, read against the batch dates; its evidence is
 * multi-hop in size), contradiction resolution → update (two statements of one fact — but the expected behaviour is
 * to flag the conflict, not to pick the newer). No fit — a new task judged for compliance, or a synthesis over the
 * whole chat, not a question about the memory: preference following, instruction following, summarization are
 * reported by ability only (`reportAs: outside`); their `type` is the nearest strategy (factual for a stated
 * preference or instruction, as LongMemEval's single-session-preference; multi-hop for a summary), read only by the
 * oracle router.
 */
export const BEAM_ABILITIES: Record<string, { type: AdaptType; reportAs?: ExtraTypeLabel }> = {
  abstention: { type: 'abstention' },
  contradiction_resolution: { type: 'update' },
  event_ordering: { type: 'temporal' },
  information_extraction: { type: 'factual' },
  instruction_following: { type: 'factual', reportAs: 'outside' },
  knowledge_update: { type: 'update' },
  multi_session_reasoning: { type: 'multi-hop' },
  preference_following: { type: 'factual', reportAs: 'outside' },
  summarization: { type: 'multi-hop', reportAs: 'outside' },
  temporal_reasoning: { type: 'temporal' },
};
/** The order BEAM's probing-question files list the abilities in (alphabetical); question ids follow it. */
export const BEAM_ABILITY_ORDER = Object.keys(BEAM_ABILITIES).sort();

/**
 * MemDaily's question types (file prefixes 01–06; docs/datasets.md §4.5): simple → factual (one attribute of one
 * entity); conditional (identify the entity by one attribute, read another), comparative, aggregative and
 * post-processing (a bridge plus reasoning over the facts) → multi-hop; noisy (conditional questions behind a
 * chit-chat preamble: the noise is in the question) → multi-hop. MemDaily has no update or abstention questions.
 */
export const MEMDAILY_TYPES: Record<string, AdaptType> = {
  simple: 'factual',
  conditional: 'multi-hop',
  comparative: 'multi-hop',
  aggregative: 'multi-hop',
  post_processing: 'multi-hop',
  noisy: 'multi-hop',
};
/**
 * A MemDaily answer that holds an absolute date (`2024年04月12日 周五 14:00`, alone or as one part of a hybrid
 * answer) was computed from a relative time in a message ("下周五下午两点") and that message's own date: such a
 * question needs temporal reasoning whatever its file, so its type is temporal (105 kept questions); its native type
 * stays the file's.
 */
export const MEMDAILY_DATE_ANSWER = /\d{4}年\d{2}月\d{2}日/u;

export function memDailyType(qaType: string, answer: string | null | undefined): AdaptType | undefined {
  const base = MEMDAILY_TYPES[qaType];
  if (!base) return undefined;
  return answer && MEMDAILY_DATE_ANSWER.test(answer) ? 'temporal' : base;
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
