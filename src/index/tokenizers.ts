/**
 * Tokenizers for BM25. `whitespace` reproduces the official LongMemEval BM25 baseline (`doc.split(" ")` in
 * `src/retrieval/run_retrieval.py`); `default` is for normal use: lowercase Unicode word tokens, each CJK character
 * its own token (Chinese/Japanese have no spaces), optional English stopword removal.
 */
import { z } from 'zod';

export type Tokenizer = (text: string) => string[];

export const TokenizerNameSchema = z.enum(['whitespace', 'default']);
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

/** A short English stopword list (the classic SMART/NLTK core), applied after lowercasing. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else of at by for with about against between into through during before after ' +
    'above below to from up down in out on off over under again further once here there when where why how all any ' +
    'both each few more most other some such no nor not only own same so than too very s t can will just don should ' +
    'now i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers ' +
    'herself it its itself they them their theirs themselves what which who whom this that these those am is are ' +
    'was were be been being have has had having do does did doing would could ll re ve d m o y'
  ).split(' '),
);

export function defaultTokenizer(options: { stopwords?: boolean } = {}): Tokenizer {
  const stop = options.stopwords ? ENGLISH_STOPWORDS : undefined;
  return (text) => {
    const tokens = text.toLowerCase().match(WORD_RE) ?? [];
    return stop ? tokens.filter((t) => !stop.has(t)) : tokens;
  };
}

export function makeTokenizer(name: TokenizerName, options: { stopwords?: boolean } = {}): Tokenizer {
  return name === 'whitespace' ? whitespaceTokenizer : defaultTokenizer(options);
}
