/** BEAM's ten abilities → AdaptMR types (plan §2.2), and the order its files list them in. */
import type { AdaptType, ExtraTypeLabel } from '../../src/core/types.ts';

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
