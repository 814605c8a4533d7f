/**
 * Label names → AdaptMR types, for models and LLM replies that name types their own way: AdaptMR type names, the
 * plan's prompt ids (`factual_extraction`, …, plan §2.2 option A) and LongMemEval's native types (DESIGN.md §2).
 */
import { ADAPT_TYPES, type AdaptType } from '../core/types.ts';

const ALIASES: Record<string, AdaptType> = {
  factual: 'factual',
  'factual-extraction': 'factual',
  'single-session-user': 'factual',
  'single-session-assistant': 'factual',
  'single-session-preference': 'factual',
  temporal: 'temporal',
  'temporal-reasoning': 'temporal',
  update: 'update',
  'knowledge-update': 'update',
  'multi-hop': 'multi-hop',
  multihop: 'multi-hop',
  'multi-session': 'multi-hop',
  abstention: 'abstention',
};

/** `Temporal_Reasoning`, `temporal reasoning`, `T2`… → `temporal`; undefined when the label is not known. */
export function labelToType(label: string): AdaptType | undefined {
  const key = label.trim().toLowerCase().replace(/[\s_]+/g, '-');
  const t = /^t([1-5])$/.exec(key);
  if (t) return ADAPT_TYPES[Number(t[1]) - 1];
  return ALIASES[key];
}

/** The plan's prompt ids (option A), in AdaptMR type order. Their first letters differ (f t k m a), which the
 * log-probability reader relies on. */
export const PROMPT_LABELS: Record<AdaptType, string> = {
  factual: 'factual_extraction',
  temporal: 'temporal_reasoning',
  update: 'knowledge_update',
  'multi-hop': 'multi_hop',
  abstention: 'abstention',
};
