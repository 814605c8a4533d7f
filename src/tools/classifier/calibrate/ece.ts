/**
 * Expected calibration error and reliability bins (Guo et al. 2017, §2; Naeini et al. 2015): top-label confidence
 * c = p(predicted type), M = 10 equal-width bins over (0, 1] (a confidence of exactly 0 goes to the first bin),
 * ECE = Σ_m |B_m|/n · |acc(B_m) − conf(B_m)|.
 */
export interface ScoredPrediction {
  confidence: number;
  correct: boolean;
}

export interface ReliabilityBin {
  lower: number;
  upper: number;
  n: number;
  /** Mean confidence in the bin (NaN when empty). */
  confidence: number;
  accuracy: number;
}

export function reliabilityBins(preds: readonly ScoredPrediction[], bins = 10): ReliabilityBin[] {
  const acc = Array.from({ length: bins }, () => ({ n: 0, conf: 0, correct: 0 }));
  for (const p of preds) {
    const b = Math.min(bins - 1, Math.max(0, Math.ceil(p.confidence * bins) - 1));
    const cell = acc[b];
    if (!cell) continue;
    cell.n += 1;
    cell.conf += p.confidence;
    cell.correct += p.correct ? 1 : 0;
  }
  return acc.map((c, i) => ({
    lower: i / bins,
    upper: (i + 1) / bins,
    n: c.n,
    confidence: c.n ? c.conf / c.n : Number.NaN,
    accuracy: c.n ? c.correct / c.n : Number.NaN,
  }));
}

export function expectedCalibrationError(preds: readonly ScoredPrediction[], bins = 10): number {
  const n = preds.length;
  if (n === 0) return Number.NaN;
  return reliabilityBins(preds, bins).reduce(
    (s, b) => (b.n ? s + (b.n / n) * Math.abs(b.accuracy - b.confidence) : s),
    0,
  );
}
