/**
 * The one rule every verdict of the `verdicts` table follows (docs/statistics.md). A claim says the difference
 * A − B lies above a target (`greater`: "AdaptMR gains ≥ 5 points") or below it (`less`: "the ablation drops"):
 *   n/a             no cell (no pairs), or fewer than MIN_UNITS resampling units — with five or fewer pairs (or
 *                   conversations) no exact paired test can reach p < 0.05, whatever the data;
 *   reached         the whole 95% CI is beyond the target (strictly beyond 0 when the target is 0) and p_holm < α;
 *   not met         the CI lies on the wrong side of the target (for a target of 0: at or below 0 for `greater` —
 *                   including "no pair differs" —, at or above 0 for `less`);
 *   not established otherwise: the reason names each criterion that failed (CI reaching past the target,
 *                   p_holm ≥ α) and the MDE, so a reader sees what the sample could have shown.
 */
export const VERDICTS = ['reached', 'not established', 'not met', 'n/a'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Fewer resampling units than this and a paired exact test cannot reach p < 0.05 (2 · 0.5⁶ = 0.031 needs six). */
export const MIN_UNITS = 6;
export const ALPHA = 0.05;

export interface Claim {
  direction: 'greater' | 'less';
  /** In the metric's units (0.05 = 5 points of a proportion). */
  target: number;
}

export interface Evidence {
  /** Pairs. */
  n: number;
  /** Resampling units: pairs, or conversations when they are clustered. */
  units: number;
  estimate: number;
  ciLow: number;
  ciHigh: number;
  pHolm: number;
  mde: number | null;
}

export const points = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;
const pText = (p: number): string => (p < 0.001 ? '<0.001' : p.toFixed(3));

export function judge(e: Evidence | null, c: Claim, alpha = ALPHA): { verdict: Verdict; reason: string } {
  if (!e || e.n === 0) return { verdict: 'n/a', reason: 'no cell: no question scored by both methods' };
  if (e.units < MIN_UNITS) {
    const what =
      e.units === e.n ? (e.units === 1 ? 'pair' : 'pairs') : e.units === 1 ? 'conversation' : 'conversations';
    return {
      verdict: 'n/a',
      reason: `n too small: ${e.units} ${what} (< ${MIN_UNITS}), no exact paired test can reach p < ${alpha}`,
    };
  }
  const g = c.direction === 'greater';
  // Mirror a `less` claim so one set of comparisons serves both.
  const low = g ? e.ciLow : -e.ciHigh;
  const high = g ? e.ciHigh : -e.ciLow;
  const t = g ? c.target : -c.target;
  const ci = `[${points(e.ciLow)}, ${points(e.ciHigh)}]`;
  const mde =
    e.mde !== null
      ? `MDE ${(e.mde * 100).toFixed(1)} points at n ${e.n}`
      : e.ciLow === e.ciHigh
        ? 'MDE undefined: the paired differences do not vary'
        : 'MDE: none detectable at this n';
  const side = g ? 'above' : 'below';
  const targetText = c.target === 0 ? '0' : points(c.target);
  if (low >= t && low > 0 && e.pHolm < alpha) {
    return { verdict: 'reached', reason: `95% CI ${ci} ${side} ${targetText} and p_holm ${pText(e.pHolm)} < ${alpha}` };
  }
  if (high < t || (t === 0 && high <= 0)) {
    const what =
      e.ciLow === 0 && e.ciHigh === 0
        ? 'no pair differs'
        : `95% CI ${ci} ${g ? 'at or below' : 'at or above'} ${targetText}`;
    return { verdict: 'not met', reason: `${what} (${mde})` };
  }
  const failed: string[] = [];
  if (!(low >= t && low > 0)) failed.push(`CI ${ci} reaches ${g ? 'below' : 'above'} ${targetText}`);
  if (!(e.pHolm < alpha)) failed.push(`p_holm ${Number.isNaN(e.pHolm) ? 'n/a' : pText(e.pHolm)} ≥ ${alpha}`);
  return { verdict: 'not established', reason: `${failed.join('; ')} (${mde})` };
}
