/**
 * BM25 baseline: Okapi BM25 over the memory units (rank_bm25's BM25Okapi arithmetic, src/index/bm25.ts), top-k.
 * With `tokenizer: whitespace` and a user-turns-only index it is the official LongMemEval `flat-bm25` retriever
 * (`src/retrieval/run_retrieval.py`). Every unit is ranked, zero scores included, as the official `argsort` does,
 * so recall@50 counts the same units the official script would.
 */
import type { Method, MemoryIndex } from '../../src/core/interfaces.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { rankedRetrieval } from '../../src/core/render.ts';
import { type Bm25Index, Bm25OptionsSchema, type Bm25Options } from '../../src/index/bm25.ts';
import { bm25Settings, sharedBm25 } from '../../src/index/bm25-shared.ts';
import { topK } from '../../src/index/top-k.ts';

export const Bm25MethodOptionsSchema = Bm25OptionsSchema;

export function createBm25Method(k: number, options: Bm25Options): Method {
  // One BM25 index per memory index (a LoCoMo conversation serves ~200 questions), shared with the memory index's
  // own keyword search when the settings are the same (src/index/bm25-shared.ts); freed with the index.
  const settings = bm25Settings(options);
  const bm25For = (mi: MemoryIndex): Bm25Index => sharedBm25(mi.units, settings);
  return {
    capabilities: { output: 'units' },
    async run(query, mi) {
      if (mi.units.length === 0) return { retrieval: rankedRetrieval([]) };
      const bm25 = bm25For(mi);
      const units = topK(bm25.scores(query.text), k, mi.units, { tieBreak: bm25.settings.tieBreak });
      return { retrieval: rankedRetrieval(units) };
    },
  };
}

export const bm25Entry = defineMethod({
  name: 'bm25',
  description: 'Okapi BM25 top-k over memory units (rank_bm25 BM25Okapi arithmetic; tokenizer, k1, b configurable)',
  optionsSchema: Bm25MethodOptionsSchema,
  create: (options, c) => createBm25Method(c.k, options),
});
