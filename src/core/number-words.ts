/**
 * The one table of number words the code reads or writes: English zero … twenty-two and the Chinese digits 零 … 十.
 * Each user takes the range it reads (stated durations and time gaps in the data, the temporal strategy's
 * spans, the leniency probes' number shifts) and adds its own extras ("a", "couple", 两, 半).
 */

/** English number words, index = value. */
export const ENGLISH_NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
  'twenty-one',
  'twenty-two',
] as const;

/** Chinese digits 零 … 十, index = value. */
export const CHINESE_DIGITS = '零一二三四五六七八九十';

/** The English words for `from` … `to` (inclusive), in order. */
export function englishNumberWords(from: number, to: number): string[] {
  return ENGLISH_NUMBER_WORDS.slice(from, to + 1);
}

/** Word → value for the English words `from` … `to`. */
export function englishNumberValues(from: number, to: number): Record<string, number> {
  return Object.fromEntries(englishNumberWords(from, to).map((w, i) => [w, from + i]));
}

/** Character → value for the Chinese digits `from` … `to`. */
export function chineseDigitValues(from: number, to: number): Record<string, number> {
  return Object.fromEntries([...CHINESE_DIGITS.slice(from, to + 1)].map((c, i) => [c, from + i]));
}
