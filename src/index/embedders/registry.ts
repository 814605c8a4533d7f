/**
 * The `embedders` registry: configs name an embedder (`wink-sif`, `openai`) with options checked by a strict zod
 * schema before anything is built. The runner passes the run's embedding cache in the context; an embedder whose
 * `cache` option is on is wrapped in a CachedEmbedder (default: on for `openai`, off for `wink-sif`, see
 * embedding-cache.ts). Without a cache in the context, embedders run uncached.
 */
import { z } from 'zod';
import type { Embedder } from '../../core/interfaces.ts';
import { Registry } from '../../core/registry.ts';
import { CachedEmbedder, type EmbeddingCache } from '../embedding-cache.ts';
import { createOpenAIEmbedder, OpenAIEmbedderOptionsSchema } from './openai.ts';
import { LazyWinkSifEmbedder } from './wink-sif.ts';

export interface EmbedderContext {
  /** The run's embedding cache (openEmbeddingCache), shared by every embedder of the run. */
  cache?: EmbeddingCache;
}

export const WinkSifOptionsSchema = z
  .object({
    /** SIF smoothing constant a (Arora et al. 2017). */
    a: z.number().positive().default(1e-3),
    /** Where the binary vector cache lives (default: ADAPTMR_CACHE_DIR, else <repo>/.cache). */
    cacheDir: z.string().optional(),
    /** Hashed directions for words the vectors lack — all Chinese, English names (default); false = the v1 embedder. */
    hashUnknown: z.boolean().default(true),
    /** Cache vectors in DuckDB; off by default since a SIF vector is cheaper to recompute than to look up. */
    cache: z.boolean().default(false),
  })
  .strict();

function maybeCached(embedder: Embedder, cache: boolean, context: EmbedderContext): Embedder {
  return cache && context.cache ? new CachedEmbedder(embedder, context.cache) : embedder;
}

export const embedders = new Registry<Embedder, EmbedderContext>('embedder')
  .register({
    name: 'wink-sif',
    description:
      'Offline SIF-weighted average of wink GloVe-derived 100-d word vectors (Arora et al. 2017), unknown words and Chinese hashed',
    optionsSchema: WinkSifOptionsSchema,
    create(o, context) {
      // Lazy: the vectors load on the first embed call, so BM25-only runs never read them.
      const embedder = new LazyWinkSifEmbedder(
        o.cacheDir === undefined
          ? { a: o.a, hashUnknown: o.hashUnknown }
          : { a: o.a, hashUnknown: o.hashUnknown, cacheDir: o.cacheDir },
      );
      return maybeCached(embedder, o.cache, context);
    },
  })
  .register({
    name: 'openai',
    description: 'Any OpenAI-compatible /embeddings endpoint through the openai SDK',
    optionsSchema: OpenAIEmbedderOptionsSchema,
    // The conformance suite points OPENAI_BASE_URL / OPENAI_API_KEY at its loopback server.
    examples: [
      { label: 'loopback endpoint, cached', options: { model: 'conformance-embed', dimensions: 16, cache: true } },
    ],
    async create(o, context) {
      return maybeCached(await createOpenAIEmbedder(o), o.cache, context);
    },
  })
  .freeze();
