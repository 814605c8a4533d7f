/**
 * The strategy contract (DESIGN.md §5, plan §2.3): one type-specific retrieval procedure. A strategy sees only the
 * query, the memory index and the context — never the gold — and returns ranked units plus the exact text a reader
 * would be given (`Retrieval.context`) and its notes (window found, events split, clusters merged, hops, abstention
 * decision).
 *
 * Order: `Retrieval.units` is always best first with non-increasing scores, so retrieval metrics at every k read the
 * list the same way for every strategy. Where the plan presents units in another order (temporal: chronological),
 * that order is applied to the rendered `context`, not to `units`; `notes.contextOrder` says which order was used.
 */
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { Query, Retrieval } from '../core/types.ts';

export interface Strategy {
  readonly name: string;
  /** `llm` strategies call `ctx.llm` (role `strategy`); `offline` ones never touch it. */
  readonly mode: 'llm' | 'offline';
  retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval>;
}

/** Per-unit extras a strategy wants shown next to a unit (update annotations) and trailing text (multi-hop
 * reasoning). Kept in `notes` as well so a fusion router can re-render fused lists with them. */
export interface RenderExtras {
  annotations?: Record<string, string>;
  trailer?: string[];
}
