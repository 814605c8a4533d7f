/**
 * Renders the context text a reader sees, in the shared unit format of src/core/render.ts (date and speaker before
 * every unit, as plan §2.3 strategy 2 step 3 asks: `[2023/05/30 (Tue) 23:40] [user] …`), so strategies and
 * baselines differ in what they retrieve, not in formatting. Adds per-unit annotations (update strategy), trailing
 * lines (multi-hop reasoning, temporal timeline) and the explicit no-memory marker of plan §2.3 strategy 5
 * (`[NO_RELEVANT_MEMORY]`).
 */
import { NO_MEMORY_LINE, renderUnit } from '../core/render.ts';
import type { ScoredUnit } from '../core/types.ts';
import type { RenderExtras } from '../core/interfaces.ts';

export { NO_MEMORY_LINE };

export type ContextOrder = 'rank' | 'chronological';

/** `YYYY-MM-DD` of an ISO time. Day precision on purpose: datasets give local wall-clock times. */
export function dayOf(at: string): string {
  return at.slice(0, 10);
}

/** Units in time order (ties: id) — a copy, the input is untouched. */
export function chronological(units: readonly ScoredUnit[]): ScoredUnit[] {
  return [...units].sort((a, b) =>
    a.unit.at < b.unit.at ? -1 : a.unit.at > b.unit.at ? 1 : a.unit.id < b.unit.id ? -1 : a.unit.id > b.unit.id ? 1 : 0,
  );
}

export function renderContext(units: readonly ScoredUnit[], order: ContextOrder, extras: RenderExtras = {}): string {
  const list = order === 'chronological' ? chronological(units) : units;
  const blocks = list.map(({ unit }, i) => {
    const annotation = extras.annotations?.[unit.id];
    return `(${i + 1}) ${renderUnit(unit, annotation ? { annotation } : {})}`;
  });
  if (list.length === 0) blocks.push(NO_MEMORY_LINE);
  if (extras.trailer && extras.trailer.length > 0) blocks.push(extras.trailer.join('\n'));
  return blocks.join('\n\n');
}

/** The running minimum, so a list ranked in tiers (e.g. in-window before out-of-window) reports non-increasing
 * scores; the order is the tiers' order, the score says how the unit compares with those above it. */
export function monotoneScores(units: readonly ScoredUnit[]): ScoredUnit[] {
  let floor = Infinity;
  return units.map((u) => {
    floor = Math.min(floor, u.score);
    return { unit: u.unit, score: floor };
  });
}
