/**
 * What a memory-server search leaves for the reader: the memories, best first, each with its date (the memory's event
 * time, normalised to UTC, in the LongMemEval date style of src/core/render.ts) — and, where the API gave provenance,
 * the ranked source units for retrieval metrics. The same shape is what the search cache stores.
 */
import { z } from 'zod';
import type { MemoryIndex } from '../../src/core/interfaces.ts';
import { formatDate, NO_MEMORY_LINE } from '../../src/core/render.ts';
import type { Retrieval, ScoredUnit } from '../../src/core/types.ts';
import type { MemoryServerApi } from './api.ts';

export const CachedSearchSchema = z.object({
  hits: z.array(
    z.object({
      text: z.string(),
      score: z.number(),
      at: z.string().optional(),
      /** Our unit ids the memory came from (empty without provenance). */
      unitIds: z.array(z.string()),
    }),
  ),
  /** The server's name and version from its handshake (MCP), when it gives them. */
  server: z.string().optional(),
  /** Memories the server returned before the cut to k (the fairness contract, docs/memory-servers.md). */
  returned: z.number().int().nonnegative().optional(),
});
export type CachedSearch = z.infer<typeof CachedSearchSchema>;

export function renderMemories(hits: CachedSearch['hits']): string {
  if (hits.length === 0) return NO_MEMORY_LINE;
  return hits.map((h, i) => `(${i + 1}) ${h.at ? `[${formatDate(h.at)}] ` : ''}${h.text}`).join('\n\n');
}

/**
 * Source units in the order of the memories that cite them (each unit once, ≤ k). Scores are the memory's, made
 * non-increasing (RRF-style server scores are not always monotone in rank), so every k reads the list alike.
 */
export function sourceUnits(hits: CachedSearch['hits'], index: MemoryIndex, k: number): ScoredUnit[] {
  const out: ScoredUnit[] = [];
  const seen = new Set<string>();
  let last = Number.POSITIVE_INFINITY;
  for (const h of hits) {
    const score = Math.min(last, h.score);
    last = score;
    for (const id of h.unitIds) {
      const unit = index.unit(id);
      if (!unit || seen.has(id)) continue;
      seen.add(id);
      out.push({ unit, score });
      if (out.length >= k) return out;
    }
  }
  return out;
}

export function renderSearch(
  result: CachedSearch,
  index: MemoryIndex,
  k: number,
  api: Pick<MemoryServerApi, 'label' | 'output'>,
): Retrieval {
  const hits = result.hits.slice(0, k);
  return {
    units: api.output === 'units' ? sourceUnits(hits, index, k) : [],
    noMemory: false,
    context: renderMemories(hits),
    notes: {
      system: api.label,
      memories: hits.length,
      withSourceIds: api.output === 'units',
      ...(result.server !== undefined ? { server: result.server } : {}),
      // The fairness contract: the benchmark's k, not the provider's, decides how many memories the reader sees.
      ...(result.returned !== undefined
        ? { returned: result.returned, cutToK: result.returned > k, fewerThanK: result.returned < k }
        : {}),
    },
  };
}
