/**
 * Plan experiment 2 arithmetic: the best strategy per type chosen on the selection half (src/eval/analysis —
 * the same code as `adaptmr analyze best-strategy`) and, on the report half, the oracle's per-question score (each
 * question served by its gold type's chosen strategy) paired with the reference's: the oracle mean and the
 * reference mean with bootstrap CIs, and the gap with a paired bootstrap CI and test (src/eval/stats). LoCoMo's
 * questions share conversations, so there — as for every other statistic of the file (src/eval/stats/results) — the
 * bootstraps resample whole conversations and the test is the cluster sign-flip. Pure.
 */
import { bestStrategyPerType, type QuestionScore } from '../../eval/analysis/best-strategy.ts';
import { splitKey, splitQuestions } from '../../eval/analysis/split.ts';
import { bootstrapCi, clusterBy, singletons, comparePaired, PlanCache, seedFor, type Interval, type PairedResult } from '../../eval/stats/index.ts';
import { bootstrapFor, conversationOf, type Bootstrap } from '../../eval/stats/results/index.ts';

export interface OracleGapRow {
  dataset: string;
  adaptType: string;
  chosen: string;
  n: number;
  oracle: Interval;
  reference: Interval;
  gap: PairedResult;
  /** What the bootstraps resampled: questions, or whole conversations (LoCoMo). */
  bootstrap: Bootstrap;
}

export interface OracleGapInput {
  scores: readonly QuestionScore[];
  strategies: readonly string[];
  reference: string;
  split: number;
  seed: number;
  resamples: number;
  /** What to resample (as stats.cluster): `auto` = conversations where questions share one. */
  cluster?: 'auto' | Bootstrap;
}

export function oracleGap(o: OracleGapInput): OracleGapRow[] {
  const questions = [...new Map(o.scores.map((s) => [splitKey(s.dataset, s.questionId), { dataset: s.dataset, questionId: s.questionId, adaptType: s.adaptType }])).values()];
  const chosen = bestStrategyPerType({ questions, scores: o.scores, strategies: o.strategies, baselines: [o.reference], fraction: o.split, seed: o.seed })
    .filter((r) => r.kind === 'upper-bound' && r.adaptType !== 'all' && r.chosen);
  const half = splitQuestions(questions, o.split, o.seed);
  const value = new Map(o.scores.map((s) => [`${splitKey(s.dataset, s.questionId)}\t${s.method}`, s.value]));
  const plans = new PlanCache(16);
  const out: OracleGapRow[] = [];
  for (const dataset of [...new Set(chosen.map((c) => c.dataset))].sort()) {
    const pairs: { type: string; id: string; oracle: number; ref: number }[] = [];
    for (const c of chosen.filter((x) => x.dataset === dataset)) {
      for (const q of questions) {
        if (q.dataset !== dataset || q.adaptType !== c.adaptType || half.get(splitKey(dataset, q.questionId)) !== 'report') continue;
        const a = value.get(`${splitKey(dataset, q.questionId)}\t${c.chosen}`);
        const b = value.get(`${splitKey(dataset, q.questionId)}\t${o.reference}`);
        if (a !== undefined && b !== undefined) pairs.push({ type: c.adaptType, id: q.questionId, oracle: a, ref: b });
      }
    }
    const types = [...new Set(pairs.map((p) => p.type))].sort();
    const bootstrap = bootstrapFor(questions.filter((q) => q.dataset === dataset).map((q) => q.questionId), o.cluster ?? 'auto');
    for (const t of [...types, 'all']) {
      const sel = pairs.filter((p) => t === 'all' || p.type === t).sort((x, y) => (x.id < y.id ? -1 : 1));
      if (sel.length === 0) continue;
      const seed = seedFor(o.seed, `oracle\t${dataset}\t${bootstrap}\t${sel.map((p) => p.id).join('\n')}`);
      const a = Float64Array.from(sel.map((p) => p.oracle));
      const b = Float64Array.from(sel.map((p) => p.ref));
      const labels = bootstrap === 'conversation' ? sel.map((p) => conversationOf(p.id) ?? p.id) : undefined;
      const units = (x: Float64Array) => (labels ? clusterBy(x, labels) : singletons(x));
      const plan = plans.get(units(a).sums.length, o.resamples, seed);
      out.push({
        dataset, adaptType: t, n: sel.length, bootstrap,
        chosen: t === 'all' ? chosen.filter((c) => c.dataset === dataset).map((c) => `${c.adaptType}=${c.chosen}`).join(' ') : chosen.find((c) => c.dataset === dataset && c.adaptType === t)!.chosen!,
        oracle: bootstrapCi(units(a), plan, 'bca'),
        reference: bootstrapCi(units(b), plan, 'bca'),
        gap: comparePaired(a, b, labels, { resamples: o.resamples, seed, ci: 'bca', continuousTest: 'sign-flip', plans }),
      });
    }
  }
  return out;
}
