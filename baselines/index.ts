/** Registry entries of every baseline method (methods that are not AdaptMR). */
export { bm25Entry } from './bm25/bm25-method.ts';
export { unifiedEmbeddingEntry } from './unified-embedding/unified-embedding-method.ts';
export { fullContextEntry } from './full-context/index.ts';
export { mem0Entry } from './mem0/index.ts';
export { zepEntry } from './zep/index.ts';
