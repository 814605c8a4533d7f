/**
 * Renders ranked memory units as the context text a reader sees: one block per unit, prefixed with its date and
 * speaker, in the order given. Shared by baselines and strategies so every method's context looks alike and
 * differences in QA accuracy come from what was retrieved, not from formatting.
 */
import type { MemoryUnit, Retrieval, ScoredUnit } from './types.ts';

/**
 * The one line every method gives the reader when it has nothing relevant: the plan's explicit marker (§2.3 strategy
 * 5, `[NO_RELEVANT_MEMORY]`) and a sentence saying what it means.
 */
export const NO_MEMORY_LINE = '[NO_RELEVANT_MEMORY] No relevant memory was found for this question.';

/** `2023-05-30T23:40:00Z` → `2023/05/30 (Tue) 23:40`, the LongMemEval date style the official reader prompt uses. */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} (${day}) ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

export function renderUnit(unit: MemoryUnit, opts: { withDates?: boolean; annotation?: string } = {}): string {
  const who = unit.speaker ?? unit.role;
  const head = opts.withDates === false ? `[${who}]` : `[${formatDate(unit.at)}] [${who}]`;
  return `${head} ${unit.text}${opts.annotation ? ` ${opts.annotation}` : ''}`;
}

export function renderUnits(units: readonly { unit: MemoryUnit }[], opts: { withDates?: boolean } = {}): string {
  if (units.length === 0) return NO_MEMORY_LINE;
  return units.map((u, i) => `(${i + 1}) ${renderUnit(u.unit, opts)}`).join('\n\n');
}

/**
 * A retrieval whose context text is rendered only when read: a retrieval-only run that stores no context never pays
 * for rendering thousands of units.
 */
export function rankedRetrieval(units: ScoredUnit[], opts: { withDates?: boolean } = {}): Retrieval {
  let context: string | undefined;
  return {
    units,
    noMemory: false,
    get context(): string {
      context ??= renderUnits(units, opts);
      return context;
    },
  };
}
