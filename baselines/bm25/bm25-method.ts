/**
 * BM25 baseline: Okapi BM25 over the memory units (rank_bm25's BM25Okapi arithmetic, src/index/bm25.ts), top-k.
 * With `tokenizer: whitespace` and a user-turns-only index it is the official LongMemEval `flat-bm25` retriever
 * (`src/retrieval/run_retrieval.py`). Every unit is ranked, zero scores included, as the official `argsort` does,
 * so recall@50 counts the same units the official script would.
 */
import { z } from 'zod';
import type { IndexSpec, Method, MemoryIndex } from '../../src/core/interfaces.ts';
import type { RegistryEntry } from '../../src/core/registry.ts';
import { rankedRetrieval } from '../../src/core/render.ts';
import { Bm25Index, Bm25OptionsSchema, type Bm25Options } from '../../src/index/bm25.ts';
import { topK } from '../../src/index/top-k.ts';
import type { MethodFactoryContext } from '../method-context.ts';

export const Bm25MethodOptionsSchema = Bm25OptionsSchema;

export function createBm25Method(id: string, index: IndexSpec, k: number, options: Bm25Options): Method {
  // One BM25 index per memory index (a LoCoMo conversation serves ~200 questions); weak keys free it with the index.
  const built = new WeakMap<MemoryIndex, Bm25Index>();
  const bm25For = (mi: MemoryIndex): Bm25Index => {
    let b = built.get(mi);
    if (!b) {
      b = new Bm25Index(mi.units.map((u) => u.text), options);
      built.set(mi, b);
    }
    return b;
  };
  return {
    name: id,
    index,
    async run(query, mi) {
      if (mi.units.length === 0) return { retrieval: rankedRetrieval([]) };
      const bm25 = bm25For(mi);
      const units = topK(bm25.scores(query.text), k, mi.units, { tieBreak: bm25.settings.tieBreak });
      return { retrieval: rankedRetrieval(units) };
    },
  };
}

export const bm25Entry: RegistryEntry<Method, MethodFactoryContext> = {
  name: 'bm25',
  description: 'Okapi BM25 top-k over memory units (rank_bm25 BM25Okapi arithmetic; tokenizer, k1, b configurable)',
  optionsSchema: Bm25MethodOptionsSchema,
  create: (options, c) => createBm25Method(c.id, c.index, c.k, options as z.output<typeof Bm25MethodOptionsSchema>),
};
