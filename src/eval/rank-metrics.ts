/**
 * Rank metrics beyond the official LongMemEval set, on one ranked list of items (session ids, session labels or
 * units) already cut to the top k:
 *
 * - `mrr` — the reciprocal rank of the first relevant item, 0 if none is in the top k (Voorhees 1999, TREC-8 QA).
 * - `recall_frac` — the fraction of the gold units found in the top k: MemSim's recall (Zhang et al. 2024, MemSim;
 *   the share of target messages retrieved), so numbers on MemSim's data line up with its table.
 * - `stale_above` — 1 when an item holding only superseded evidence (an older value the dataset marks as replaced:
 *   src/data/supersession.ts) ranks above every item holding current evidence, or is in the top k while no current
 *   item is; 0 otherwise. Its mean is the stale-evidence rate: LOWER is better. Scored only where superseded gold
 *   exists at the level.
 */

/** What an item of a ranking holds: current gold evidence, only superseded evidence, or neither. */
export type Holding = 'current' | 'superseded' | 'none';

/** 1/rank of the first relevant item among the first k, else 0. */
export function reciprocalRank(relevant: readonly boolean[], k: number): number {
  const n = Math.min(Math.max(0, k), relevant.length);
  for (let i = 0; i < n; i++) if (relevant[i]) return 1 / (i + 1);
  return 0;
}

/** |gold ∩ found| / |gold|; 0 for empty gold (such questions are not scored). */
export function recallFraction(found: ReadonlySet<string>, gold: ReadonlySet<string>): number {
  if (gold.size === 0) return 0;
  let hits = 0;
  for (const g of gold) if (found.has(g)) hits += 1;
  return hits / gold.size;
}

/** 1 when, among the first k items, a superseded one comes before every current one (or no current one is there). */
export function staleAbove(holdings: readonly Holding[], k: number): number {
  const n = Math.min(Math.max(0, k), holdings.length);
  for (let i = 0; i < n; i++) {
    if (holdings[i] === 'current') return 0;
    if (holdings[i] === 'superseded') return 1;
  }
  return 0;
}

/** Distinct values in first-seen order (a session label repeated by several turns counts once). */
export function distinctInOrder<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
