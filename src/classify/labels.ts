/**
 * Label names → AdaptMR types, for models and LLM replies that name types their own way: AdaptMR type names, the
 * plan's prompt ids (`factual_extraction`, …, plan §2.2 option A), the plan's type names in Chinese and English
 * (§2.2 table: 事实提取 / Factual Extraction, 时序推理 / Temporal Reasoning, 知识更新 / Knowledge Update,
 * 多跳推理 / Multi-hop Reasoning, 拒绝判断 / Abstention; 时间推理 is accepted for 时序推理) and LongMemEval's native
 * types (docs/design.md §2).
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
  'multi-hop-reasoning': 'multi-hop',
  事实提取: 'factual',
  时序推理: 'temporal',
  时间推理: 'temporal',
  知识更新: 'update',
  多跳推理: 'multi-hop',
  拒绝判断: 'abstention',
  拒答: 'abstention',
};

/** `Temporal_Reasoning`, `temporal reasoning`, `T2`… → `temporal`; undefined when the label is not known. */
export function labelToType(label: string): AdaptType | undefined {
  const key = label
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const t = /^t([1-5])$/.exec(key);
  if (t) return ADAPT_TYPES[Number(t[1]) - 1];
  return ALIASES[key];
}

/**
 * The type a free-text reply names, for replies in the plan's own format ("只返回类型名称": `temporal_reasoning`,
 * `时序推理`, `T2`, `2. temporal_reasoning`, `**Temporal Reasoning**`, `时序推理（temporal_reasoning）`). The whole
 * reply (quotes, Markdown emphasis, a leading list number and trailing punctuation removed) is tried first; else
 * every known label found in it is collected and the reply counts only when they all name one type. Undefined when
 * none or several types are named.
 */
export function labelInText(text: string): AdaptType | undefined {
  const stripped = text
    .trim()
    .replace(/^[\s"'`*_#>：:]+|[\s"'`*_。.!！]+$/gu, '')
    .replace(/^(?:类型|type)\s*[:：]\s*/iu, '');
  const whole = labelToType(stripped);
  if (whole) return whole;
  const numbered = /^([1-5])\s*[.)、:：]?\s*$/u.exec(stripped);
  if (numbered) return ADAPT_TYPES[Number(numbered[1]) - 1];
  const found = new Set<AdaptType>();
  const lower = stripped.toLowerCase();
  for (const [alias, type] of Object.entries(ALIASES)) {
    const spaced = alias.replace(/-/g, '[-_ ]');
    const re = /\p{Script=Han}/u.test(alias)
      ? new RegExp(alias, 'u')
      : new RegExp(`(?<![\\p{L}\\p{N}])${spaced}(?![\\p{L}\\p{N}])`, 'u');
    if (re.test(lower)) found.add(type);
  }
  const t = /(?<![\p{L}\p{N}])t([1-5])(?![\p{L}\p{N}])/u.exec(lower);
  if (t) found.add(ADAPT_TYPES[Number(t[1]) - 1] as AdaptType);
  return found.size === 1 ? [...found][0] : undefined;
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

/** The plan's Chinese type names (§2.2 table), in AdaptMR type order; their first characters differ (事 时 知 多 拒).
 * 时间推理 shares 时 with 时序推理, so both read as temporal from a first-character token. */
export const PLAN_ZH_NAMES: Record<AdaptType, readonly string[]> = {
  factual: ['事实提取'],
  temporal: ['时序推理', '时间推理'],
  update: ['知识更新'],
  'multi-hop': ['多跳推理'],
  abstention: ['拒绝判断'],
};
