/**
 * The plan's baseline (seeds/004 §1.1): embed the question, rank every memory unit by cosine similarity, return
 * the top k. Uses the experiment's embedder through the memory index, so it is exactly the "semantic" retrieval
 * the AdaptMR strategies start from.
 */
import { z } from 'zod';
import type { Method } from '../../src/core/interfaces.ts';
import type { RegistryEntry } from '../../src/core/registry.ts';
import { rankedRetrieval } from '../../src/core/render.ts';
import type { MethodFactoryContext } from '../method-context.ts';

export const UnifiedEmbeddingOptionsSchema = z.object({}).strict();

export const unifiedEmbeddingEntry: RegistryEntry<Method, MethodFactoryContext> = {
  name: 'unified-embedding',
  description: 'cosine top-k over memory-unit embeddings (the plan\'s unified retrieval baseline)',
  optionsSchema: UnifiedEmbeddingOptionsSchema,
  create: (_options, c) => ({
    name: c.id,
    index: c.index,
    async run(query, mi) {
      const units = mi.units.length === 0 ? [] : await mi.semantic(query.text, c.k);
      return { retrieval: rankedRetrieval(units) };
    },
  }),
};
