// The memory index layer: units, BM25, embedders (offline wink SIF, OpenAI-compatible), the embedding cache.
export { buildUnits, groupRounds, turnText, type BuildUnitsOptions } from './units.ts';
export { Bm25, Bm25Index, Bm25OptionsSchema, type Bm25Options, type Bm25Settings } from './bm25.ts';
export { bm25Settings, sharedBm25 } from './bm25-shared.ts';
export {
  defaultTokenizer,
  ENGLISH_STOPWORDS,
  makeTokenizer,
  simpleTokenizer,
  whitespaceTokenizer,
  type Tokenizer,
  type TokenizerName,
} from './tokenizers.ts';
export { standardAnalyser, cjkTokens, cjkWords, porterStem, type Analyser } from './analysers/index.ts';
export { rankIndices, topK, type RankOptions, type TieBreak } from './top-k.ts';
export { createMemoryIndex, type MemoryIndexOptions } from './memory-index.ts';
export {
  CachedEmbedder,
  MemoryEmbeddingCache,
  openEmbeddingCache,
  textHash,
  type EmbeddingCache,
} from './embedding-cache.ts';
export { resolveCacheDir } from '../core/cache-dir.ts';
export { embedders, WinkSifOptionsSchema, type EmbedderContext } from './embedders/registry.ts';
export {
  createWinkSifEmbedder,
  WinkSifEmbedder,
  WINK_SIF_ID,
  WINK_SIF_V1_ID,
  type WinkSifOptions,
} from './embedders/wink-sif.ts';
export { loadWinkVectors, winkCachePath, WordVectors } from './embedders/wink-vectors.ts';
export { createWordVectorsSlot, useWordVectorsSlot, type WordVectorsSlot } from './embedders/shared-word-vectors.ts';
export {
  createOpenAIEmbedder,
  OpenAIEmbedder,
  OpenAIEmbedderOptionsSchema,
  type OpenAIEmbedderOptions,
} from './embedders/openai.ts';
export { perHaystack, haystackKey } from './per-haystack.ts';
