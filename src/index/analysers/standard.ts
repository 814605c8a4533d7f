/**
 * The standard analyser for keyword search (BM25's default outside official-parity configs): NFKC-normalised,
 * lower-cased; English words lose possessives ("cat's" → "cat") and inner apostrophes ("don't" → "dont"), stopwords
 * optionally, and are Porter-stemmed (NLTK's variant, porter-stemmer.ts, so "running"/"runs" meet "run");
 * punctuation is dropped; runs of Chinese/Japanese characters are segmented into words plus their characters
 * (chinese.ts). Stems are memoised: the same few thousand words recur across a haystack.
 */
import { ENGLISH_STOPWORDS } from './stopwords.ts';
import { cjkTokens } from './chinese.ts';
import { porterStem } from './porter-stemmer.ts';

export type Analyser = (text: string) => string[];

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}`;
/** A CJK run, or a run of letters/digits/marks with inner apostrophes that contains no CJK character. */
const TOKEN_RE = new RegExp(
  String.raw`[${CJK}]+|(?:(?![${CJK}])[\p{L}\p{N}\p{M}])+(?:['’](?:(?![${CJK}])[\p{L}\p{N}\p{M}])+)*`,
  'gu',
);
const CJK_START = new RegExp(`^[${CJK}]`, 'u');

const STEM_CACHE_MAX = 200_000;
const stemCache = new Map<string, string>();
function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = porterStem(word);
    if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** An English word as the analyser indexes it, before stemming: possessive and apostrophes gone. */
export function normaliseEnglish(word: string): string {
  return word.replace(/['’]s$/u, '').replace(/['’]/gu, '');
}

export interface StandardAnalyserOptions {
  /** Drop English stopwords (before stemming). */
  stopwords?: boolean;
  /** Porter-stem English words (default true). */
  stem?: boolean;
}

export function standardAnalyser(options: StandardAnalyserOptions = {}): Analyser {
  const dropStop = options.stopwords ?? false;
  const doStem = options.stem ?? true;
  return (text) => {
    const out: string[] = [];
    for (const m of text.normalize('NFKC').toLowerCase().matchAll(TOKEN_RE)) {
      const t = m[0];
      if (CJK_START.test(t)) {
        out.push(...cjkTokens(t));
        continue;
      }
      const w = normaliseEnglish(t);
      if (w === '' || (dropStop && ENGLISH_STOPWORDS.has(w))) continue;
      out.push(doStem ? stem(w) : w);
    }
    return out;
  };
}
