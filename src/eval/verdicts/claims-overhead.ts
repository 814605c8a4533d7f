/**
 * Experiment 5's claim `overhead`, per dataset and AdaptMR method: the plan predicts AdaptMR adds < 30% to the
 * reference's time per question. The verdict reads the ratio Σ latency(AdaptMR) / Σ latency(reference) over the same
 * questions (BCa CI, efficiency.ts) — but only when it means something:
 *   - each question timed at least MIN_TIMING_REPEATS times (`timingRepeats`, its median stored), else n/a;
 *   - the reference's median time per question at least OVERHEAD_BASE_MIN_MS, else n/a ("base < 1 ms"): a ratio
 *     over a ~0.1 ms dot product says nothing about an end-to-end system (it was 73× in one run and 333× in another).
 * The reason always gives the added milliseconds per question (median and p95 of method − reference), which stay
 * meaningful. reached = CI below 1.3; not met = CI at or above 1.3; not established otherwise. No test, no family.
 */
import type { ClaimContext } from './context.ts';
import { efficiencyOf, type QuestionTiming } from './efficiency.ts';
import type { PendingVerdict } from './families.ts';
import type { PlanRunInput } from './inputs.ts';
import { quantileSorted } from '../stats/index.ts';
import type { Verdict } from './rule.ts';

export const OVERHEAD_LIMIT = 1.3;
export const OVERHEAD_BASE_MIN_MS = 1;
export const MIN_TIMING_REPEATS = 3;

const signedMs = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)} ms`;

/** The overhead rule on its own (unit-tested): ratio CI, base median, repeats. */
export function overheadVerdict(o: {
  ratio: { estimate: number; low: number; high: number } | null;
  baseMedianMs: number;
  repeats: number;
}): { verdict: Verdict; reason: string; estimate: number | null } {
  if (o.repeats < MIN_TIMING_REPEATS) {
    return {
      verdict: 'n/a',
      estimate: o.baseMedianMs >= OVERHEAD_BASE_MIN_MS ? (o.ratio?.estimate ?? null) : null,
      reason: `timed ${o.repeats}× per question; the overhead verdict needs ≥ ${MIN_TIMING_REPEATS} timing repeats (timingRepeats: ${MIN_TIMING_REPEATS})`,
    };
  }
  if (!(o.baseMedianMs >= OVERHEAD_BASE_MIN_MS)) {
    return {
      verdict: 'n/a',
      estimate: null,
      reason: `ratio n/a, base < ${OVERHEAD_BASE_MIN_MS} ms (reference median ${o.baseMedianMs.toFixed(2)} ms per question)`,
    };
  }
  if (!o.ratio) return { verdict: 'n/a', estimate: null, reason: 'no question timed for both methods' };
  const r = o.ratio;
  const text = `ratio ${r.estimate.toFixed(2)}× [${r.low.toFixed(2)}, ${r.high.toFixed(2)}]`;
  if (r.high < OVERHEAD_LIMIT)
    return { verdict: 'reached', estimate: r.estimate, reason: `${text}: the whole CI below ${OVERHEAD_LIMIT}×` };
  if (r.low >= OVERHEAD_LIMIT)
    return { verdict: 'not met', estimate: r.estimate, reason: `${text}: the whole CI at or above ${OVERHEAD_LIMIT}×` };
  return { verdict: 'not established', estimate: r.estimate, reason: `${text}: the CI straddles ${OVERHEAD_LIMIT}×` };
}

export function overheadClaims(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[] {
  const stats = ctx.stats(run.runId);
  const reference = stats?.reference?.method;
  const out: PendingVerdict[] = [];
  if (!stats || !reference) return out;
  const variants = run.methods.filter((m) => m.method === 'adaptmr' && !ctx.facts(run.runId, m.id)?.upperBound);
  for (const dataset of ctx.datasetsOf(run.runId)) {
    const timings: QuestionTiming[] = ctx.input.retrievals
      .filter((r) => r.runId === run.runId && r.dataset === dataset)
      .map((r) => ({
        method: r.method,
        questionId: r.questionId,
        latencyMs: r.latencyMs,
        stageMs: {},
        route: r.route,
        error: r.error,
      }));
    const eff = efficiencyOf(timings, [], reference, {
      resamples: stats.resamples,
      seed: stats.seed,
      cluster: stats.cluster,
    });
    const refTimes = Float64Array.from(
      timings.filter((t) => t.method === reference && !t.error),
      (t) => t.latencyMs,
    ).sort();
    const baseMedianMs = refTimes.length > 0 ? quantileSorted(refTimes, 0.5) : Number.NaN;
    for (const v of variants) {
      const e = eff.find((x) => x.method === v.id);
      const added = e?.addedMs
        ? `added ${signedMs(e.addedMs.median)} per question (median; p95 ${signedMs(e.addedMs.p95)}) over ${run.timingRepeats} timing repeat${run.timingRepeats === 1 ? '' : 's'}`
        : 'no question timed for both';
      const v0 = overheadVerdict({ ratio: e?.overhead ?? null, baseMedianMs, repeats: run.timingRepeats });
      out.push({
        row: {
          experiment,
          dataset,
          claim: 'overhead',
          methodA: v.id,
          methodB: reference,
          metric: 'latency_ms',
          level: null,
          k: null,
          adaptType: 'all',
          n: e?.n ?? 0,
          estimate: v0.estimate,
          ciLow: v0.estimate === null ? null : (e?.overhead?.low ?? null),
          ciHigh: v0.estimate === null ? null : (e?.overhead?.high ?? null),
          pValue: null,
        },
        family: null,
        tested: null,
        pValue: Number.NaN,
        claim: null,
        fixed: { verdict: v0.verdict, reason: v0.reason },
        prefix: `plan: AdaptMR overhead < 30% of ${reference}; ${added}`,
      });
    }
  }
  return out;
}
