/**
 * Keeps the memory indexes of the haystacks in use, so questions that share a haystack (a LoCoMo conversation
 * serves ~200 questions) reuse one index and its embeddings, while finished LongMemEval haystacks are released.
 */
import type { Embedder, IndexSpec, MemoryIndex } from '../core/interfaces.ts';
import type { Instance } from '../core/types.ts';
import { canonicalJson } from '../core/hash.ts';
import { createMemoryIndex } from '../index/index.ts';

export class IndexCache {
  private readonly entries = new Map<string, MemoryIndex>();

  constructor(
    private readonly embedder: Embedder,
    /** Indexes kept at once; questions arrive grouped by haystack, so a few per spec suffice. */
    private readonly capacity: number,
  ) {}

  get(instance: Instance, spec: IndexSpec): MemoryIndex {
    const key = `${instance.dataset}\u0000${instance.haystackId}\u0000${canonicalJson(spec)}`;
    let index = this.entries.get(key);
    if (index) {
      // Refresh recency: Map iteration order is insertion order, so re-inserting marks it most recent.
      this.entries.delete(key);
    } else {
      index = createMemoryIndex(instance.haystack, spec, this.embedder);
    }
    this.entries.set(key, index);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return index;
  }
}
