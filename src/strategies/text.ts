/**
 * LLM-free text helpers for the strategies: query entity/keyword extraction and matching against unit text.
 *
 * English: capitalised phrases ("New York", "Dr. Smith") plus non-stopword content words of ≥ 3 letters, with a light
 * normaliser (possessive `'s` stripped, plural `-ies` → `-y`, plural `-s` stripped) so "dogs" matches "dog". Chinese (and other Han text): character
 * bigrams of each Han run that avoid function characters (pronouns, particles, question words) — Chinese has no spaces, and bigrams are
 * the standard unsupervised unit for Chinese IR (Kwok 1997; Nie et al. 2000).
 */
import { ENGLISH_STOPWORDS } from '../index/tokenizers.ts';

/** Question scaffolding that carries no topic ("what did I say about…"). */
const QUESTION_WORDS: ReadonlySet<string> = new Set(
  ('what when where which who whom whose why how many much did does do tell remember mentioned mention said say ' +
    'ever know recall remind last first time ago currently current now still previously recently yes').split(' '),
);
/** Han characters that are grammar, not topic (pronouns, particles, question words). */
const HAN_FUNCTION = new Set([...'我你他她它们的了吗呢吧啊是在有没什么哪谁怎样么个这那和与跟过说到就都也还要会能想']);

const HAN_RUN = /\p{Script=Han}+/gu;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

export function normaliseWord(word: string): string {
  let w = word.toLowerCase().replace(/[’']s$/u, '').replace(/[’']/gu, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/u.test(w)) w = w.slice(0, -1);
  return w;
}

/** Bigrams of each Han run that contain no function character; a content character covered by no such bigram
 * ("我的猫" → 猫) is kept on its own. */
function hanBigrams(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(HAN_RUN) ?? []) {
    const chars = [...run];
    const covered = new Set<number>();
    const grams: string[] = [];
    for (let i = 0; i + 1 < chars.length; i++) {
      if (HAN_FUNCTION.has(chars[i]!) || HAN_FUNCTION.has(chars[i + 1]!)) continue;
      grams.push(chars[i]! + chars[i + 1]!);
      covered.add(i).add(i + 1);
    }
    chars.forEach((c, i) => {
      if (!covered.has(i) && !HAN_FUNCTION.has(c)) grams.push(c);
    });
    out.push(...grams);
  }
  return out;
}

/** Entities/keywords of a query, normalised, deduplicated, in first-seen order. */
export function extractEntities(text: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const add = (e: string): void => {
    if (e && !seen.has(e)) {
      seen.add(e);
      found.push(e);
    }
  };
  // Capitalised multi-word phrases (not at sentence start) first: they are the likeliest named entities.
  const words = [...text.matchAll(WORD)];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]![0];
    if (!/^\p{Lu}/u.test(w)) continue;
    const start = words[i]!.index;
    const sentenceStart = start === 0 || /[.?!]\s*$/u.test(text.slice(0, start));
    let j = i;
    while (j + 1 < words.length && /^\p{Lu}/u.test(words[j + 1]![0]) && /^\s+$/u.test(text.slice(words[j]!.index + words[j]![0].length, words[j + 1]!.index))) j++;
    if (j > i && !sentenceStart) add(words.slice(i, j + 1).map((m) => normaliseWord(m[0])).join(' '));
  }
  for (const m of words) {
    const raw = m[0].toLowerCase().replace(/[’']s$/u, '');
    if (/\p{Script=Han}/u.test(raw)) continue;
    if (raw.length < 3 || ENGLISH_STOPWORDS.has(raw) || QUESTION_WORDS.has(raw)) continue;
    add(normaliseWord(raw));
  }
  for (const b of hanBigrams(text)) add(b);
  return found;
}

/** The normalised word set and raw lowercase text of a unit, for `countOverlap`. */
export interface TextKeys {
  words: ReadonlySet<string>;
  lower: string;
}

export function textKeys(text: string): TextKeys {
  const words = new Set<string>();
  for (const m of text.matchAll(WORD)) words.add(normaliseWord(m[0]));
  const lower = text.toLowerCase();
  return { words, lower };
}

/** How many of the entities occur in the text: words by normalised form, phrases and Han bigrams as substrings. */
export function countOverlap(entities: readonly string[], keys: TextKeys): number {
  let n = 0;
  for (const e of entities) {
    if (e.includes(' ') || /\p{Script=Han}/u.test(e)) {
      if (keys.lower.includes(e)) n++;
    } else if (keys.words.has(e)) n++;
  }
  return n;
}

/** Sentences of a text (for extractive intermediate answers). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.?!。？！])\s*|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
