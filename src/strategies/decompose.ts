/**
 * Offline question decomposition for the multi-hop strategy (plan §2.3 策略 4, Step 1, without an LLM).
 *
 * Aggregation questions — "which … most/least", "how many … (in total)", "how much … total", 哪种/哪个…最多,
 * 一共/总共/多少次/几次 — need every memory of a kind collected before counting (plan §1.2 场景 D): the question
 * itself, then its content words together (the items being aggregated, without the question's scaffolding), then
 * each content word alone ("restaurants", "cuisine"; 餐厅, 菜系), so memories that name only one side are found too.
 * Other questions: split at clause conjunctions (", and", " and ", ";", " as well as ", 和/以及/还有) into parts
 * that each keep ≥ 1 content word; with < 2 parts, the question itself and then its keywords alone (a second,
 * entity-focused search). At most `maxHops` steps, duplicates removed.
 */
import { contentWords, extractEntities } from './text.ts';

const AGGREGATION_EN = [
  /\bwhich\b.*\b(?:most|least|more|fewer|less|majority)\b/iu,
  /\bhow many\b/iu,
  /\bhow much\b.*\b(?:total|spen[dt]|altogether|combined|in all)\b/iu,
  /\b(?:in total|total number|altogether|combined|in all)\b/iu,
];
const AGGREGATION_ZH = [
  /哪(?:种|个|些|家|类|位).*(?:最多|最少|更多|更少)/u,
  /一共|总共|总计|加起来|多少次|几次|多少个|几个|多少种|几种/u,
];

export function isAggregation(question: string): boolean {
  return [...AGGREGATION_EN, ...AGGREGATION_ZH].some((re) => re.test(question));
}

export type Decomposition = { kind: 'aggregation' | 'conjunction' | 'keywords'; steps: string[] };

export function decomposeOffline(question: string, maxHops: number): Decomposition {
  const words = contentWords(question);
  if (isAggregation(question) && words.length > 0) {
    const steps = [question, words.join(' '), ...(words.length > 1 ? words : [])];
    return { kind: 'aggregation', steps: [...new Set(steps)].slice(0, maxHops) };
  }
  const parts = question
    .split(/,\s*and\s+|;\s*|\s+as well as\s+|\s+and\s+|和|以及|还有|；/u)
    .map((p) => p.trim())
    .filter((p) => extractEntities(p).length >= 1);
  if (parts.length >= 2) return { kind: 'conjunction', steps: [...new Set(parts)].slice(0, maxHops) };
  const steps = [question, words.join(' ')].filter((s) => s.trim().length > 0);
  return { kind: 'keywords', steps: [...new Set(steps)].slice(0, maxHops) };
}
