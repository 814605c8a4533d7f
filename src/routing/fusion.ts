/**
 * Fuses the ranked lists of several strategies into one (plan §2.4 多策略融合).
 *
 * The plan scores a unit by `prob × mem.score`, but strategies' scores are not on one scale (a boosted factual
 * score can exceed 1, temporal scores are a running minimum, multi-hop scores are the best cosine over sub-queries),
 * so each list is normalised on its own before the class probability weights it:
 * - `minmax` (default): (s − min) / (max − min) within the list (all equal → 1); fused = Σ_t p_t · norm_t(u).
 * - `rank`: (n − r) / n for 0-based rank r in a list of n — the list's order only, no scores; fused = Σ_t p_t · …
 * - `rrf`: reciprocal-rank fusion, Σ_t 1 / (k_rrf + r_t(u)) with 1-based ranks and k_rrf = 60 (Cormack, Clarke &
 *   Büttcher, SIGIR 2009); `rrfWeighted` multiplies each term by p_t.
 * A unit absent from a list gets nothing from it. Ties: the order of first appearance, lists taken by weight.
 */
import type { AdaptType, ScoredUnit } from '../core/types.ts';

export type FusionMethod = 'minmax' | 'rank' | 'rrf';

export interface WeightedList {
  type: AdaptType;
  weight: number;
  units: readonly ScoredUnit[];
}

export interface FusionOptions {
  method: FusionMethod;
  rrfK: number;
  rrfWeighted: boolean;
}

export function normalise(units: readonly ScoredUnit[], method: Exclude<FusionMethod, 'rrf'>): number[] {
  const n = units.length;
  if (method === 'rank') return units.map((_, r) => (n - r) / n);
  let min = Infinity;
  let max = -Infinity;
  for (const u of units) {
    min = Math.min(min, u.score);
    max = Math.max(max, u.score);
  }
  return units.map((u) => (max > min ? (u.score - min) / (max - min) : 1));
}

export function fuse(lists: readonly WeightedList[], k: number, options: FusionOptions): ScoredUnit[] {
  const ordered = [...lists].sort((a, b) => b.weight - a.weight);
  const acc = new Map<string, { unit: ScoredUnit['unit']; score: number; first: number }>();
  let seen = 0;
  for (const list of ordered) {
    const contributions =
      options.method === 'rrf'
        ? list.units.map((_, r) => (options.rrfWeighted ? list.weight : 1) / (options.rrfK + r + 1))
        : normalise(list.units, options.method).map((v) => list.weight * v);
    list.units.forEach((u, r) => {
      const entry = acc.get(u.unit.id);
      if (entry) entry.score += contributions[r]!;
      else acc.set(u.unit.id, { unit: u.unit, score: contributions[r]!, first: seen++ });
    });
  }
  return [...acc.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, k)
    .map(({ unit, score }) => ({ unit, score }));
}
