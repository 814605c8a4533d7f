/**
 * Kendall's τ-b (ties corrected in both rankings), as `scipy.stats.kendalltau(x, y, variant="b")` computes it:
 * τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁ / n₂ the pairs tied in x / in y; a pair tied in either
 * counts as neither concordant nor discordant. Quadratic: BEAM's lists hold at most a few dozen items. NaN when a
 * ranking is constant (scipy returns nan there too).
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new Error(`kendallTauB: lengths differ (${x.length} and ${y.length})`);
  const n = x.length;
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((n0 - tiedX) * (n0 - tiedY));
  return denominator === 0 ? Number.NaN : (concordant - discordant) / denominator;
}

/**
 * BEAM's order score of a response list against the reference list (`event_ordering_score` of
 * mohammadtavakoli78/BEAM@b2a3ee8 `src/evaluation/compute_metrics.py`), after alignment (`systemCanon`: each
 * response item replaced by the reference item it was matched to, else kept): precision, recall and F1 of the
 * items, τ-b over the union (an item missing from a list ranks last there, all such tied), τ normalised to [0, 1],
 * and the final score τ_norm × F1. Where τ-b is undefined (a constant ranking, e.g. an empty response) upstream
 * gets NaN; here τ_norm is 0, so the final score is 0.
 */
export function eventOrderingScore(
  reference: readonly string[],
  systemCanon: readonly string[],
): {
  precision: number;
  recall: number;
  f1: number;
  tauB: number;
  tauNorm: number;
  finalScore: number;
} {
  const refSet = new Set(reference);
  const sysSet = new Set(systemCanon);
  const tp = [...refSet].filter((r) => sysSet.has(r)).length;
  const fp = systemCanon.filter((s) => !refSet.has(s)).length;
  const fn = reference.filter((r) => !sysSet.has(r)).length;
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const union = [...new Set([...reference, ...systemCanon])];
  const tieRank = union.length + 1;
  const toRank = (seq: readonly string[]): number[] => {
    const rank = new Map<string, number>();
    // Python's `{item: i + 1 for i, item in enumerate(seq)}`: a repeated item keeps its LAST position.
    seq.forEach((item, i) => rank.set(item, i + 1));
    return union.map((u) => rank.get(u) ?? tieRank);
  };
  const tauB = kendallTauB(toRank(reference), toRank(systemCanon));
  const tauNorm = Number.isNaN(tauB) ? 0 : (tauB + 1) / 2;
  return { precision, recall, f1, tauB, tauNorm, finalScore: tauNorm * f1 };
}
