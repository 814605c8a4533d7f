/**
 * Plain semantic top-K with dated context: the "unified retrieval" the plan's ablations put in place of a strategy
 * (experiment 4, "w/o Temporal Strategy → 统一向量检索"). Same ranking as the unified-embedding baseline.
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { Query, Retrieval } from '../core/types.ts';
import { renderContext } from './render.ts';
import type { Strategy } from '../core/interfaces.ts';

export const UnifiedOptionsSchema = z.object({}).strict();

export function createUnified(): Strategy {
  return {
    name: 'unified',
    mode: 'offline',
    async retrieve(query: Query, index: MemoryIndex, k: number, _ctx: Ctx): Promise<Retrieval> {
      const units = await index.semantic(query.text, k);
      return {
        units,
        noMemory: false,
        context: renderContext(units, 'rank'),
        notes: { strategy: 'unified', contextOrder: 'rank' },
      };
    },
  };
}
