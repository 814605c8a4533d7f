/**
 * Tokenizers for BM25, by config name:
 * - `whitespace`: the official LongMemEval BM25 baseline (`doc.split(" ")` in `src/retrieval/run_retrieval.py`);
 *   official-parity configs (experiments/lme-s-bm25-official.yaml) name it explicitly.
 * - `standard` (also the value `default`, and the default): the analyser of analysers/standard.ts — lower-case,
 *   punctuation and possessives stripped, English Porter-stemmed, Chinese segmented into words + characters.
 * - `simple`: the tokenizer `default` meant before the standard analyser existed (lowercase Unicode word tokens,
 *   each CJK character its own token, no stemming) — kept so earlier numbers can be reproduced.
 */
import { z } from 'zod';
import { standardAnalyser } from './analysers/standard.ts';
import { ENGLISH_STOPWORDS } from './analysers/stopwords.ts';

export { ENGLISH_STOPWORDS };

export type Tokenizer = (text: string) => string[];

export const TokenizerNameSchema = z.enum(['whitespace', 'default', 'standard', 'simple']);
export type TokenizerName = z.infer<typeof TokenizerNameSchema>;

/**
 * Python's `str.split(" ")`: splits on the single space character only, case kept, empty strings kept
 * (`"a  b"` → `['a', '', 'b']`, `" a"` → `['', 'a']`, `""` → `['']`). JavaScript's `split(' ')` has exactly these
 * semantics, which is why this is a one-liner.
 */
export const whitespaceTokenizer: Tokenizer = (text) => text.split(' ');

// One CJK ideograph/kana per token; otherwise a run of letters, digits or marks that contains no CJK character.
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}`;
const WORD_RE = new RegExp(String.raw`[${CJK}]|(?:(?![${CJK}])[\p{L}\p{N}\p{M}])+`, 'gu');

/** The `simple` tokenizer (the pre-analyser default; see header). */
export function simpleTokenizer(options: { stopwords?: boolean } = {}): Tokenizer {
  const stop = options.stopwords ? ENGLISH_STOPWORDS : undefined;
  return (text) => {
    const tokens = text.toLowerCase().match(WORD_RE) ?? [];
    return stop ? tokens.filter((t) => !stop.has(t)) : tokens;
  };
}

/** The default analyser (`standard`). */
export function defaultTokenizer(options: { stopwords?: boolean } = {}): Tokenizer {
  return standardAnalyser(options);
}

export function makeTokenizer(name: TokenizerName, options: { stopwords?: boolean } = {}): Tokenizer {
  switch (name) {
    case 'whitespace':
      return whitespaceTokenizer;
    case 'simple':
      return simpleTokenizer(options);
    case 'default':
    case 'standard':
      return standardAnalyser(options);
  }
}
