/**
 * `nltk.word_tokenize` for BLEU-1 as Mem0's evaluation computes it (`evaluation/metrics/utils.py`:
 * `nltk.word_tokenize(prediction.lower())`).
 *
 * `word_tokenize` = Punkt sentence splitting, then `NLTKWordTokenizer` (NLTK's improved Penn Treebank tokenizer,
 * `nltk/tokenize/destructive.py`) on each sentence. The word tokenizer here is a re-implementation of those
 * substitution rules in order; Python's Unicode `\w`, `\d` and `\b` become explicit Unicode classes because
 * JavaScript's are ASCII-only.
 *
 * Two NLTK versions, because they tokenise differently (fixtures checked token for token, answer-metrics.test.ts):
 * - `3.8.1` (the default; nltk/nltk tag 3.8.1, commit 63a63b1a7793aceceb1efc23bc1fd87e7095f9d5,
 *   `nltk/tokenize/destructive.py`): a leading single quote is split off only before a one-character word
 *   (`(?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b` → `\1 \2`), so `'poetry` stays one token; no dash rule (`a—b` is one
 *   token); clitics are split only before a literal space (`it's\t` stays whole).
 * - `3.10.3`: splits every leading quote before a word that is not a clitic (`' poetry`), pads the dashes
 *   U+2012–U+2015, and collapses whitespace before the clitic rules.
 *
 * Sentence splitting is an approximation: Punkt's English model (trained abbreviation lists, orthographic
 * statistics) is data we do not ship. We split after a token ending in `.` (optionally followed by closing quotes or
 * brackets) and whitespace, unless the token is a single letter, holds an inner period (`u.s.`) or is a common
 * abbreviation. Its only effect on BLEU-1 is whether a word before a mid-text full stop keeps its period
 * (`home.` vs `home` `.`); `?` and `!` are split off everywhere by the word tokenizer anyway.
 */

const W = '[\\p{L}\\p{N}_]';

type Sub = [RegExp, string];

/** The NLTK releases whose `NLTKWordTokenizer` is reproduced here. */
export const NLTK_VERSIONS = ['3.8.1', '3.10.3'] as const;
export type NltkVersion = (typeof NLTK_VERSIONS)[number];
/** The version LoCoMo-era evaluations ran (Mem0's BLEU-1 on LoCoMo); the default everywhere. */
export const DEFAULT_NLTK_VERSION: NltkVersion = '3.8.1';

const STARTING_QUOTES_COMMON: Sub[] = [
  [/([«“‘„]|[`]+)/gu, ' $1 '],
  [/^"/u, '``'],
  [/(``)/gu, ' $1 '],
  [/([ ([{<])("|'{2})/gu, '$1 `` '],
];
const STARTING_QUOTES: Record<NltkVersion, Sub[]> = {
  // 3.8.1: `(?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b` → `\1 \2`: only a quote before a one-character word.
  '3.8.1': [...STARTING_QUOTES_COMMON, [new RegExp(`(')(?!re|ve|ll|m|t|s|d|n)(${W})(?!${W})`, 'giu'), '$1 $2']],
  '3.10.3': [
    ...STARTING_QUOTES_COMMON,
    [new RegExp(`(?<!${W})(')(?!(?:re|ve|ll|m|t|s|d|n)(?!${W}))(?=${W})`, 'giu'), '$1 '],
  ],
};

const DASHES: Sub = [/[\u2012-\u2015]/gu, ' $& '];
const PUNCTUATION_3_10: Sub[] = [
  [/([^.])(\.)([\])}>"'»”’ ]*)\s*$/u, '$1 $2 $3 '],
  [/([:,])([^\p{Nd}])/gu, ' $1 $2'],
  // Python's `$` also matches before a final newline.
  [/([:,])(?=\n?$)/u, ' $1 '],
  [/\.{2,}/gu, ' $& '],
  [/[;@#$%&]/gu, ' $& '],
  DASHES,
  [/([^.])(\.)([\])}>"']*)\s*$/u, '$1 $2$3 '],
  [/[?!]/gu, ' $& '],
  [/([^'])' /gu, "$1 ' "],
  [/[*]/gu, ' $& '],
];

const PARENS_BRACKETS: Sub = [/[\][(){}<>]/gu, ' $& '];
const DOUBLE_DASHES: Sub = [/--/gu, ' -- '];

/** 3.8.1 has no dash rule (U+2012–U+2015 added later). */
const PUNCTUATION: Record<NltkVersion, Sub[]> = {
  '3.8.1': PUNCTUATION_3_10.filter((sub) => sub !== DASHES),
  '3.10.3': PUNCTUATION_3_10,
};

const CLITICS: Sub[] = [
  [/([^' ])('[sS]|'[mM]|'[dD]|') /gu, '$1 $2 '],
  [/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /gu, '$1 $2 '],
];
const QUOTES_TO_TOKENS: Sub[] = [
  [/([»”’])/gu, ' $1 '],
  [/''/gu, " '' "],
  [/"/gu, " '' "],
];
const ENDING_QUOTES: Record<NltkVersion, Sub[]> = {
  '3.8.1': [...QUOTES_TO_TOKENS, ...CLITICS],
  // 3.10.3 collapses whitespace first, so a clitic before a tab or newline is split too.
  '3.10.3': [...QUOTES_TO_TOKENS, [/\s+/gu, ' '], ...CLITICS],
};

const b = (s: string): string => `(?<!${W})${s}(?!${W})`;
const CONTRACTIONS: Sub[] = [
  [new RegExp(b('(can)(not)'), 'giu'), ' $1 $2 '],
  [new RegExp(b("(d)('ye)"), 'giu'), ' $1 $2 '],
  [new RegExp(b('(gim)(me)'), 'giu'), ' $1 $2 '],
  [new RegExp(b('(gon)(na)'), 'giu'), ' $1 $2 '],
  [new RegExp(b('(got)(ta)'), 'giu'), ' $1 $2 '],
  [new RegExp(b('(lem)(me)'), 'giu'), ' $1 $2 '],
  [new RegExp(b("(more)('n)"), 'giu'), ' $1 $2 '],
  [new RegExp(`(?<!${W})(wan)(na)(?=\\s)`, 'giu'), ' $1 $2 '],
  [new RegExp(` ('t)(is)(?!${W})`, 'giu'), ' $1 $2 '],
  [new RegExp(` ('t)(was)(?!${W})`, 'giu'), ' $1 $2 '],
];

function applyAll(text: string, subs: readonly Sub[]): string {
  let out = text;
  for (const [re, rep] of subs) out = out.replace(re, rep);
  return out;
}

/** `NLTKWordTokenizer().tokenize(text)` of the given NLTK version (no parenthesis conversion). */
export function treebankTokenize(text: string, version: NltkVersion = DEFAULT_NLTK_VERSION): string[] {
  let t = applyAll(text, STARTING_QUOTES[version]);
  t = applyAll(t, PUNCTUATION[version]);
  t = applyAll(t, [PARENS_BRACKETS, DOUBLE_DASHES]);
  t = applyAll(` ${t} `, ENDING_QUOTES[version]);
  t = applyAll(t, CONTRACTIONS);
  return t.split(/\s+/u).filter((x) => x !== '');
}

const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'etc',
  'inc',
  'ltd',
  'co',
  'corp',
  'no',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'mt',
  'ave',
  'approx',
  'dept',
  'est',
  'fig',
]);

/** Approximate Punkt sentence split (see the file header). */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const re = /\S+/gu;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const token = m[0];
    const core = token.replace(/[\])}>"'»”’]+$/u, '');
    if (!core.endsWith('.') || /\.{2,}$/u.test(core)) continue;
    const word = core.slice(0, -1).replace(/^[([{<"'«“‘`]+/u, '');
    if (word === '' || /^\p{L}$/u.test(word) || word.includes('.') || ABBREVIATIONS.has(word.toLowerCase())) continue;
    const end = m.index + token.length;
    if (end >= text.length) break;
    sentences.push(text.slice(start, end));
    start = end;
  }
  const rest = text.slice(start);
  if (rest.trim() !== '') sentences.push(rest);
  return sentences;
}

/** `nltk.word_tokenize(text)` (with the approximate sentence split). */
export function wordTokenize(text: string, version: NltkVersion = DEFAULT_NLTK_VERSION): string[] {
  return splitSentences(text).flatMap((s) => treebankTokenize(s, version));
}
