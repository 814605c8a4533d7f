/**
 * The plan's baseline (plan §1.1): embed the question, rank every memory unit by cosine similarity, return
 * the top k. Uses the experiment's embedder through the memory index, so it is exactly the "semantic" retrieval
 * the AdaptMR strategies start from.
 */
import { z } from 'zod';
import { defineMethod } from '../../src/core/method-entry.ts';
import { rankedRetrieval } from '../../src/core/render.ts';

export const UnifiedEmbeddingOptionsSchema = z.object({}).strict();

export const unifiedEmbeddingEntry = defineMethod({
  name: 'unified-embedding',
  description: "cosine top-k over memory-unit embeddings (the plan's unified retrieval baseline)",
  optionsSchema: UnifiedEmbeddingOptionsSchema,
  create: (_options, c) => ({
    capabilities: { output: 'units' },
    async run(query, mi) {
      const units = mi.units.length === 0 ? [] : await mi.semantic(query.text, c.k);
      return { retrieval: rankedRetrieval(units) };
    },
  }),
});
