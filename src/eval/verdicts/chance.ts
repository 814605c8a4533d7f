/**
 * The chance rate of a retrieval metric: its expectation when the top k is drawn uniformly at random from the
 * question's haystack (N units at the row's level — sessions, or turns —, g of them gold), per question, then averaged
 * over a verdict row's questions for the `chance` flag (flags.ts). Derivations in docs/statistics.md ("Chance rates");
 * k' = min(k, N) is how many units a random ranking can put in the top k.
 *
 *   recall_any@k   1 − C(N−g, k')/C(N, k')           (hypergeometric: no gold unit among k' draws)
 *   recall_all@k   C(N−g, k'−g)/C(N, k') = Π_{i<g} (k'−i)/(N−i), 0 when k' < g
 *   precision@k    k'·(g/N)/k                          (each slot holds a gold unit with probability g/N; ÷ k, as the metric)
 *   recall_frac@k  k'/N                                (each gold unit is in the top k with probability k'/N)
 *   ndcg_any@k     (g/N)·Σ_{i<k'} d(i) / IDCG          (d as retrieval-metrics.ts dcg; IDCG = DCG of min(g, k) ones)
 *   mrr@k          Σ_{r≤k'} (1/r)·P(first gold at rank r), P = g/(N−r+1)·Π_{i<r−1} (N−g−i)/(N−i)
 * Products, not factorials, so large haystacks stay finite. Other metrics (stale_above, accuracy, latency) have none.
 */
import { dcg } from '../retrieval-metrics.ts';
import type { QuestionFact } from './inputs.ts';

const CHANCE_METRICS = new Set(['recall_any', 'recall_all', 'precision', 'recall_frac', 'ndcg_any', 'mrr']);

/** Whether a metric has a chance rate here. */
export const hasChanceRate = (metric: string | null): boolean => metric !== null && CHANCE_METRICS.has(metric);

/** P(no gold unit among k draws without replacement from N units, g gold) = C(N−g, k)/C(N, k). */
function noneDrawn(n: number, g: number, k: number): number {
  let p = 1;
  for (let i = 0; i < k; i++) {
    if (n - g - i <= 0) return 0;
    p *= (n - g - i) / (n - i);
  }
  return p;
}

function mrrChance(n: number, g: number, kk: number): number {
  let sum = 0;
  let missed = 1; // P(no gold unit in the first r − 1 ranks)
  for (let r = 1; r <= kk; r++) {
    sum += (missed * (g / (n - r + 1))) / r;
    missed *= (n - g - (r - 1)) / (n - (r - 1));
    if (missed <= 0) break;
  }
  return sum;
}

/** The expected value of `metric`@k under a uniformly random ranking of N units with g gold; null when undefined. */
export function randomTopK(metric: string, k: number, n: number, gold: number): number | null {
  if (!(n > 0) || !(gold > 0) || !(k > 0)) return null;
  const g = Math.min(gold, n);
  const kk = Math.min(k, n);
  switch (metric) {
    case 'recall_any':
      return 1 - noneDrawn(n, g, kk);
    case 'recall_all': {
      if (kk < g) return 0;
      let p = 1;
      for (let i = 0; i < g; i++) p *= (kk - i) / (n - i);
      return p;
    }
    case 'precision':
      return (kk * (g / n)) / k;
    case 'recall_frac':
      return kk / n;
    case 'ndcg_any': {
      const ideal = dcg(new Array<number>(Math.min(g, k)).fill(1), k);
      return ((g / n) * dcg(new Array<number>(kk).fill(1), kk)) / ideal;
    }
    case 'mrr':
      return mrrChance(n, g, kk);
    default:
      return null;
  }
}

/** The haystack and gold sizes of a question at a level, or null when the file did not record them. */
function sizesAt(q: QuestionFact, level: string): { n: number; g: number } | null {
  const h = q.haystack;
  if (!h) return null;
  if (level === 'session' && h.sessions !== null) return { n: h.sessions, g: h.goldSessions };
  if (level === 'turn' && h.turns !== null) return { n: h.turns, g: h.goldTurns };
  return null;
}

/** Looks up questions by dataset and id (a question's haystack is the same in every run of one file). */
/** A row's chance rate and the one-sided 95% margin a random ranker's mean reaches above it by luck. */
export interface ChanceBand {
  rate: number;
  margin: number;
}

export class ChanceRates {
  private readonly byId = new Map<string, QuestionFact>();
  /** Datasets with at least one question whose haystack size was not recorded (files before schema 5). */
  readonly unrecorded = new Set<string>();

  constructor(questions: readonly QuestionFact[]) {
    for (const q of questions) {
      if (!q.haystack) this.unrecorded.add(q.dataset);
      const key = `${q.dataset}\t${q.questionId}`;
      if (!this.byId.has(key) || (q.haystack && !this.byId.get(key)!.haystack)) this.byId.set(key, q);
    }
  }

  /**
   * The mean chance rate over `ids` of `dataset` for metric@k at `level`, and the one-sided 95% margin a random
   * ranker's mean could reach above it by luck (1.645 × the SD of that mean: a per-question score in [0, 1] with mean
   * r has variance at most r(1 − r), exact for the hit metrics): null when the metric has none, or any question's
   * haystack size is unknown (not computable, never silently 0).
   */
  rowBand(
    dataset: string,
    ids: readonly string[],
    metric: string | null,
    level: string | null,
    k: number | null,
  ): ChanceBand | null {
    if (!hasChanceRate(metric) || level === null || k === null || ids.length === 0) return null;
    let sum = 0;
    let variance = 0;
    for (const id of ids) {
      const q = this.byId.get(`${dataset}\t${id}`);
      const s = q ? sizesAt(q, level) : null;
      const rate = s ? randomTopK(metric!, k, s.n, s.g) : null;
      if (rate === null) return null;
      sum += rate;
      variance += rate * (1 - rate);
    }
    return { rate: sum / ids.length, margin: (1.645 * Math.sqrt(variance)) / ids.length };
  }
}
