/**
 * Full-context baseline: the reader gets the whole haystack — every memory unit of the index, oldest first — with
 * no retrieval at all. When the rendered history exceeds `maxContextTokens` (o200k_base, src/llm/tokens.ts), the
 * oldest units are dropped until it fits, so the newest memory is kept, and the truncation is recorded in
 * `retrieval.notes` as `{ truncated, keptUnits, droppedUnits, tokens }` (always present, `truncated: false` when
 * everything fit).
 *
 * Reference: LongMemEval's `full-history-session` reader (`src/generation/run_generation.py`, retriever type
 * `orig-session`) gives the haystack in date order and budgets it at model context − generation length − 1000
 * tokens (126,500 for a 128k-context model with 500 generation tokens, our default). The official script cuts the
 * *token string* at the budget, which keeps the oldest text and may cut mid-session; we drop whole units from the
 * oldest end instead, as the experiment design asks (newest kept). The method ignores `k`.
 */
import { z } from 'zod';
import type { MemoryIndex, Method } from '../../src/core/interfaces.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { renderUnit, renderUnits } from '../../src/core/render.ts';
import type { ScoredUnit } from '../../src/core/types.ts';
import { countTokens } from '../../src/llm/tokens.ts';

export const FullContextOptionsSchema = z
  .object({
    /** Token budget for the rendered history (o200k_base); default 128k − 500 − 1000 as the official reader. */
    maxContextTokens: z.number().int().positive().default(126_500),
    /** Prefix each unit with its date (the reader needs dates for temporal questions). */
    withDates: z.boolean().default(true),
  })
  .strict();
export type FullContextOptions = z.output<typeof FullContextOptionsSchema>;

export interface TruncationNotes {
  truncated: boolean;
  keptUnits: number;
  droppedUnits: number;
  /** o200k_base tokens of the context given to the reader. */
  tokens: number;
  maxContextTokens: number;
}

/** Units oldest first; units with equal times keep the index order (sessions are in haystack order). */
function chronological(index: MemoryIndex): ScoredUnit[] {
  return index.units
    .map((unit, i) => ({ unit, i }))
    .sort((a, b) => (a.unit.at < b.unit.at ? -1 : a.unit.at > b.unit.at ? 1 : a.i - b.i))
    .map(({ unit }) => ({ unit, score: 0 }));
}

/** The newest suffix of `units` whose rendering fits the budget, its context text and token count. */
export function truncateNewest(
  units: readonly ScoredUnit[],
  maxTokens: number,
  withDates: boolean,
): { kept: ScoredUnit[]; context: string; tokens: number } {
  // Estimate from per-unit costs (block + numbering/separator), then settle on the exact count of the real
  // rendering: grow towards older units while it still fits, shrink while it does not. Usually a step or two.
  let start = units.length;
  let budget = maxTokens;
  while (start > 0) {
    const cost = countTokens(renderUnit(units[start - 1]!.unit, { withDates })) + 4;
    if (cost > budget) break;
    budget -= cost;
    start--;
  }
  const exact = (from: number): { context: string; tokens: number } => {
    if (from >= units.length) return { context: '', tokens: 0 };
    const context = renderUnits(units.slice(from), { withDates });
    return { context, tokens: countTokens(context) };
  };
  let best = exact(start);
  while (start > 0) {
    const next = exact(start - 1);
    if (next.tokens > maxTokens) break;
    start--;
    best = next;
  }
  while (best.tokens > maxTokens) {
    start++;
    best = exact(start);
  }
  return { kept: units.slice(start), ...best };
}

type History = { units: ScoredUnit[]; context: string; notes: TruncationNotes };

export function createFullContextMethod(options: FullContextOptions): Method {
  // The context depends only on the haystack, so it is built once per memory index (a LoCoMo conversation serves
  // ~200 questions); weak keys free it with the index. It is this method's memory: the history as the reader will
  // read it, which `memorise` writes before the questions.
  const built = new WeakMap<MemoryIndex, History>();
  const historyOf = (mi: MemoryIndex): History => {
    let result = built.get(mi);
    if (!result) {
      const all = chronological(mi);
      const { kept, context, tokens } = truncateNewest(all, options.maxContextTokens, options.withDates);
      const notes: TruncationNotes = {
        truncated: kept.length < all.length,
        keptUnits: kept.length,
        droppedUnits: all.length - kept.length,
        tokens,
        maxContextTokens: options.maxContextTokens,
      };
      result = { units: kept, context, notes };
      built.set(mi, result);
    }
    return result;
  };
  return {
    // The units are the history in date order, not a ranking: no retrieval metrics (n/a in every retrieval table).
    capabilities: { output: 'units', ranks: false },
    async memorise(mi) {
      historyOf(mi);
    },
    async run(_query, mi) {
      const result = historyOf(mi);
      return {
        retrieval: { units: [...result.units], noMemory: false, context: result.context, notes: { ...result.notes } },
      };
    },
  };
}

export const fullContextEntry = defineMethod({
  name: 'full-context',
  description:
    'The whole haystack in date order as context (no retrieval), truncated to maxContextTokens keeping the newest units; truncation recorded in notes',
  optionsSchema: FullContextOptionsSchema,
  examples: [
    { label: 'defaults', options: {}, exempt: { withinK: 'gives the whole haystack (k is ignored by design)' } },
  ],
  create: (options) => createFullContextMethod(options),
});
