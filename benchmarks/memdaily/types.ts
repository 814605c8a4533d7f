/** MemDaily's native question types → AdaptMR types (plan §2.2), and the date answers that make a question temporal. */
import type { AdaptType } from '../../src/core/types.ts';

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
