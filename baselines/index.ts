/** Registry entries of every baseline method (methods that are not AdaptMR). */
export { bm25Entry } from './bm25/bm25-method.ts';
export { unifiedEmbeddingEntry } from './unified-embedding/unified-embedding-method.ts';
export { fullContextEntry } from './full-context/index.ts';
export { mem0Entry } from './mem0/index.ts';
export { zepEntry } from './zep/index.ts';
export { longMemEvalRagEntry } from './longmemeval-rag/longmemeval-rag-method.ts';
export { aMemEntry } from './a-mem/a-mem-method.ts';
export { raeEntry } from './rae/rae-method.ts';
export { generativeAgentsEntry } from './generative-agents/index.ts';
export { reasoningBankEntry } from './reasoningbank/index.ts';
export { ragoEntry } from './rago/index.ts';
