/** LoCoMo-Plus's one AdaptMR type (plan §2.2). */
import type { AdaptType, ExtraTypeLabel } from '../../src/core/types.ts';

/**
 * LoCoMo-Plus "Cognitive" items: implicit recall of a cue from a later statement with little shared wording; none
 * of the five types fits, so they are reported as their own type (`cognitive`, native type = `relation_type`). For
 * retrieval a cue is single-evidence recall, so the oracle router's nearest type is factual.
 */
export const LOCOMO_PLUS_TYPE: { type: AdaptType; reportAs: ExtraTypeLabel } = {
  type: 'factual',
  reportAs: 'cognitive',
};
