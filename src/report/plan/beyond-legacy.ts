/**
 * Verdict lines the beyond-benchmarks section still computes itself (to be replaced by rows of the stored `verdicts`
 * table, as the plan experiments' sections print them): the plan's experiment-3 prediction on one comparison, and
 * experiment 2's gap target on the oracle's gap.
 */
import { HOLM_ALPHA, formatComparison, type ComparisonCell } from '../comparison-cells.ts';
import { points } from './plan-runs.ts';

export function predictionLine(c: ComparisonCell, lo: number, hi: number, scope: string): string {
  const d = c.meanDiff * 100;
  const verdict = c.ciLow * 100 >= lo && c.pHolm < HOLM_ALPHA ? 'met (CI at or above the low end, significant after Holm)'
    : d >= lo ? `not established (point estimate ${d > hi ? 'above the range' : 'in range'}; CI reaches below ${lo} or not significant)` : 'not met';
  return `  ${scope}: ${c.methodA} − ${c.methodB} ${formatComparison(c)} → plan +${lo}–${hi} points: ${verdict}`;
}

export function gapVerdict(gap: { meanDiff: number; ciLow: number; pValue: number }, target: number): string {
  if (gap.ciLow * 100 >= target && gap.pValue < 0.05) return `reached: the whole 95% CI is at or above ${target} points and p < 0.05`;
  if (gap.ciLow * 100 >= target) return `not established: the 95% CI is at or above ${target} points but the paired test gives p ${gap.pValue.toFixed(3)} ≥ 0.05`;
  if (gap.meanDiff * 100 >= target) return `not established: the point estimate reaches ${target} points but the CI reaches below`;
  return `not reached: the gap is ${points(gap.meanDiff)} points (plan: ≥ ${target})`;
}
