/** Re-exports of the text analysers (keyword search, offline embedder). */
export { standardAnalyser, normaliseEnglish, type Analyser, type StandardAnalyserOptions } from './standard.ts';
export { cjkTokens, cjkWords, CJK_RUN, HAS_CJK } from './chinese.ts';
export { porterStem } from './porter-stemmer.ts';
export { ENGLISH_STOPWORDS } from './stopwords.ts';
