/** The NLTK-compatible Porter stemmer moved to src/index/analysers (BM25's analyser uses it too); re-exported here
 * so the answer metrics keep their import. */
export { porterStem } from '../../index/analysers/porter-stemmer.ts';
