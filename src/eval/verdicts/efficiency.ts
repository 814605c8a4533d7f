/**
 * Plan experiment 5 arithmetic over per-question rows (pure): latency per question (mean, p50, p95 — linear
 * interpolation), mean time per stage, LLM calls and tokens per question by stage, the share of questions routed to
 * each strategy, and the overhead ratio vs the reference, Σ latency(method) / Σ latency(reference) over the same
 * questions, with a BCa bootstrap CI (a ratio of sums is the cluster statistic of src/eval/stats/bootstrap.ts with
 * the reference latency as the "count"); on LoCoMo-style ids the resampled units are whole conversations (sums of
 * both latencies per conversation), as every other statistic of a LoCoMo run; and the added milliseconds per
 * question (method − reference on each paired question: median and p95), the number that stays meaningful when the
 * reference takes a fraction of a millisecond and the ratio does not.
 */
import { bootstrapCi, PlanCache, quantileSorted, seedFor, type Interval } from '../stats/index.ts';
import { bootstrapFor, conversationOf, type Bootstrap } from '../stats/results/index.ts';

export interface QuestionTiming {
  method: string;
  questionId: string;
  latencyMs: number;
  /** Stage → ms inside the method (AdaptMR: classify, retrieve, gate); empty = one `retrieval` stage. */
  stageMs: Record<string, number>;
  route: string | null;
  error: boolean;
}

export interface CallRow {
  method: string;
  questionId: string;
  stage: string;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

export interface MethodEfficiency {
  method: string;
  n: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  stageMeanMs: Record<string, number>;
  callsPerQuestion: Record<string, number>;
  tokensPerQuestion: Record<string, number>;
  routeShare: Record<string, number>;
  /** null for the reference itself or without paired questions. */
  overhead: Interval | null;
  /** Added milliseconds per question vs the reference (method − reference on each paired question): median, p95. */
  addedMs: { median: number; p95: number } | null;
  /** What the overhead's bootstrap resampled. */
  bootstrap: Bootstrap;
}

export function efficiencyOf(
  timings: readonly QuestionTiming[],
  calls: readonly CallRow[],
  reference: string | null,
  opts: { resamples: number; seed: number; cluster?: 'auto' | Bootstrap },
): MethodEfficiency[] {
  const ok = timings.filter((t) => !t.error);
  const bootstrap = bootstrapFor(new Set(ok.map((t) => t.questionId)), opts.cluster ?? 'auto');
  const unitOf = (id: string): string => (bootstrap === 'conversation' ? (conversationOf(id) ?? id) : id);
  const methods = [...new Set(timings.map((t) => t.method))];
  const refBy = new Map(ok.filter((t) => t.method === reference).map((t) => [t.questionId, t.latencyMs]));
  const plans = new PlanCache(8);
  return methods.map((method) => {
    const mine = ok.filter((t) => t.method === method).sort((a, b) => (a.questionId < b.questionId ? -1 : 1));
    const n = mine.length;
    const sorted = Float64Array.from(mine.map((t) => t.latencyMs)).sort();
    const stageMeanMs: Record<string, number> = {};
    for (const t of mine) {
      const stages = Object.keys(t.stageMs).length > 0 ? t.stageMs : { retrieval: t.latencyMs };
      for (const [s, ms] of Object.entries(stages)) stageMeanMs[s] = (stageMeanMs[s] ?? 0) + ms / n;
    }
    const callsPerQuestion: Record<string, number> = {};
    const tokensPerQuestion: Record<string, number> = {};
    for (const c of calls.filter((x) => x.method === method)) {
      callsPerQuestion[c.stage] = (callsPerQuestion[c.stage] ?? 0) + 1 / Math.max(1, n);
      tokensPerQuestion[c.stage] =
        (tokensPerQuestion[c.stage] ?? 0) + (c.promptTokens + c.completionTokens) / Math.max(1, n);
    }
    const routeShare: Record<string, number> = {};
    for (const t of mine) if (t.route) routeShare[t.route] = (routeShare[t.route] ?? 0) + 1 / n;
    let overhead: Interval | null = null;
    const paired = mine.filter((t) => refBy.has(t.questionId));
    const added = Float64Array.from(paired, (t) => t.latencyMs - refBy.get(t.questionId)!).sort();
    const addedMs =
      reference && method !== reference && added.length > 0
        ? { median: quantileSorted(added, 0.5), p95: quantileSorted(added, 0.95) }
        : null;
    if (reference && method !== reference && paired.length > 1) {
      const sums = new Map<string, { a: number; ref: number }>();
      for (const t of paired) {
        const u = sums.get(unitOf(t.questionId)) ?? { a: 0, ref: 0 };
        u.a += t.latencyMs;
        u.ref += refBy.get(t.questionId)!;
        sums.set(unitOf(t.questionId), u);
      }
      const units = {
        sums: Float64Array.from([...sums.values()].map((u) => u.a)),
        counts: Float64Array.from([...sums.values()].map((u) => u.ref)),
      };
      const seed = seedFor(opts.seed, `overhead\t${bootstrap}\t${paired.map((t) => t.questionId).join('\n')}`);
      overhead = bootstrapCi(units, plans.get(units.sums.length, opts.resamples, seed), 'bca');
    }
    const mean = n === 0 ? Number.NaN : sorted.reduce((s, v) => s + v, 0) / n;
    return {
      method,
      n,
      meanMs: mean,
      p50Ms: quantileSorted(sorted, 0.5),
      p95Ms: quantileSorted(sorted, 0.95),
      stageMeanMs,
      callsPerQuestion,
      tokensPerQuestion,
      routeShare,
      overhead,
      addedMs,
      bootstrap,
    };
  });
}
