/**
 * Durations stated in BEAM's answers and rubrics, to tell a reference answer that contradicts its rubric (the rubric
 * is the scored gold).
 */
import { englishNumberValues, englishNumberWords } from '../../src/core/number-words.ts';

const NUMBER_WORDS = englishNumberValues(0, 12);
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const DURATION = new RegExp(
  `\\b(\\d+(?:\\.\\d+)?|${englishNumberWords(0, 12).join('|')})\\s+(day|week|month|year)s?\\b`,
  'giu',
);

/** Durations a text states, in days (months as 30, years as 365; "same day" is 0). */
export function statedDurations(text: string): number[] {
  const out = [...text.matchAll(DURATION)].map((m) => {
    const n = NUMBER_WORDS[m[1]!.toLowerCase()] ?? Number(m[1]);
    return n * UNIT_DAYS[m[2]!.toLowerCase()]!;
  });
  if (/\bsame day\b/iu.test(text)) out.push(0);
  return out;
}

/**
 * Whether `answer` states durations none of which is one the rubric states (±1 day): upstream scores the rubric only,
 * so such an answer is a reference text that contradicts the gold (4 temporal items, docs/datasets.md §4.1).
 */
export function answerContradictsRubric(answer: string, rubric: readonly string[]): boolean {
  const want = statedDurations(rubric.join('\n'));
  const said = statedDurations(answer);
  if (want.length === 0 || said.length === 0) return false;
  return !want.some((w) => said.some((s) => Math.abs(s - w) <= 1));
}
