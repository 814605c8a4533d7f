/**
 * Retrieval metrics for one question (recall_any@k, recall_all@k, ndcg_any@k, precision@k) at session and turn
 * level, computed exactly as the official LongMemEval code does (GitHub xiaowu0162/LongMemEval,
 * `src/retrieval/eval_utils.py` and `src/retrieval/run_retrieval.py`), plus the averaging and skip rules of
 * `run_retrieval.py` `main()`. Pure functions; ids are compared as strings.
 */
import type { Gold, Granularity } from '../core/types.ts';
import {
  deriveRetrievalGold,
  indexedTurns,
  type GoldMode,
  type RetrievalGold,
  type UnitRef,
} from './retrieval-gold.ts';
import { distinctInOrder, recallFraction, reciprocalRank, staleAbove, type Holding } from './rank-metrics.ts';

/** The cut-offs `run_retrieval.py` evaluates. */
export const OFFICIAL_KS: readonly number[] = [1, 3, 5, 10, 30, 50];
export const RETRIEVAL_METRICS = [
  'recall_any',
  'recall_all',
  'ndcg_any',
  'precision',
  'mrr',
  'recall_frac',
  'stale_above',
] as const;
export type RetrievalMetric = (typeof RETRIEVAL_METRICS)[number];
export type RetrievalLevel = 'session' | 'turn';

function topSet(ranked: readonly string[], k: number): Set<string> {
  return new Set(ranked.slice(0, Math.max(0, k)));
}

/** 1 if any gold id is in the top k (`evaluate_retrieval`: `any(doc in recalled_docs …)`); 0 for empty gold. */
export function recallAny(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  const top = topSet(ranked, k);
  for (const g of gold) if (top.has(g)) return 1;
  return 0;
}

/** 1 if every gold id is in the top k. Empty gold gives 1, as Python's `all([])` (such questions are skipped). */
export function recallAll(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  const top = topSet(ranked, k);
  for (const g of gold) if (!top.has(g)) return 0;
  return 1;
}

/**
 * DCG as `eval_utils.dcg`: rel[0] + Σ_{i≥1} rel[i] / log2(i+1) over the first k relevances (0-based i). Note the
 * discount of rank 2 is 1/log2(2) = 1, the same as rank 1 (the original Järvelin–Kekäläinen form with base 2), not
 * the 1/log2(rank+1) of most IR toolkits.
 */
export function dcg(relevances: readonly number[], k: number): number {
  const n = Math.min(Math.max(0, k), relevances.length);
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 1; i < n; i++) sum += relevances[i]! / Math.log2(i + 1);
  return relevances[0]! + sum;
}

/**
 * nDCG@k with binary relevance, as `eval_utils.ndcg`: DCG of the ranking over the ideal DCG, which sorts the
 * relevances of the WHOLE corpus, i.e. min(k, nRelevant) ones. `nRelevant` is the number of relevant entries in the
 * corpus (default `gold.size`; pass more when ids repeat, e.g. session labels of turns). Repeated relevant ids in
 * `ranked` each count, as in the official code. 0 when nothing is relevant.
 */
export function ndcgAny(
  ranked: readonly string[],
  gold: ReadonlySet<string>,
  k: number,
  nRelevant = gold.size,
): number {
  const top = ranked.slice(0, Math.max(0, k));
  const ideal = dcg(new Array<number>(Math.min(nRelevant, Math.max(0, k))).fill(1), k);
  if (ideal === 0) return 0;
  return (
    dcg(
      top.map((id) => (gold.has(id) ? 1 : 0)),
      k,
    ) / ideal
  );
}

/**
 * Precision@k = |gold ∩ top k| / k (distinct ids). No official definition exists. We divide by k, not by
 * min(k, ranked.length): k is the budget of slots the reader gets, so a method that returns fewer units earns no
 * bonus for it, and values stay comparable across methods and cut-offs (trec_eval's P@k does the same).
 */
export function precision(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  if (k <= 0) return 0;
  let hits = 0;
  for (const id of topSet(ranked, k)) if (gold.has(id)) hits += 1;
  return hits / k;
}

export interface SessionRanking {
  /** The session label of every ranked turn, in rank order (repeats kept). */
  labels: string[];
  /** How many ranked turns the session-level metrics@k look at: enough to cover k distinct sessions. */
  effectiveK: number;
}

/**
 * The official turn→session conversion (`eval_utils.evaluate_retrieval_turn2session`): every ranked turn is
 * replaced by its session label and k is grown until the top `effectiveK` turns cover k distinct sessions (or the
 * ranking runs out). Session metrics@k are then `recallAny/recallAll/ndcgAny(labels, goldSessions, effectiveK)`.
 * Exact only when `rankedTurnIds` is the full ranking of the index, as officially.
 */
export function turnToSessionRanking(
  rankedTurnIds: readonly string[],
  turnToSession: (id: string) => string,
  k: number,
): SessionRanking {
  const labels = rankedTurnIds.map(turnToSession);
  const n = labels.length;
  // Python: effective_k = k; while effective_k <= n and |set(labels[:effective_k])| < k: effective_k += 1
  const seen = new Set(labels.slice(0, k));
  let effectiveK = k;
  while (effectiveK <= n && seen.size < k) {
    effectiveK += 1;
    const next = labels[effectiveK - 1];
    if (next !== undefined) seen.add(next);
  }
  return { labels, effectiveK };
}

export interface RetrievalMetricRow {
  level: RetrievalLevel;
  metric: RetrievalMetric;
  k: number;
  value: number;
}

export type SkipReason = 'abstention' | 'no-gold';

export interface LevelVerdict {
  level: RetrievalLevel;
  /** Whether this question enters the official average at this level. */
  counted: boolean;
  skipReason?: SkipReason;
}

export interface RetrievalEvalInput {
  /** The method's ranking, best first. */
  ranked: readonly UnitRef[];
  /** Every unit of the index (the official ideal DCG and effective k look at the whole corpus). */
  indexed: readonly UnitRef[];
  granularity: Granularity;
  gold: Gold;
  /** Default `official`. */
  mode?: GoldMode;
  /** Default `OFFICIAL_KS`. */
  ks?: readonly number[];
}

export interface RetrievalEval {
  rows: RetrievalMetricRow[];
  levels: LevelVerdict[];
  gold: RetrievalGold;
}

// Label of the "noans" half of an official gold session (never equal to a real session id: ids have no NUL).
const NOANS = '\u0000noans';

/**
 * Metrics of one question in long format, plus whether each level counts in the official averages.
 *
 * - Session units → session level only (ranked session ids vs session gold).
 * - Turn and round units → turn level, and session level via the official turn→session conversion.
 *   Turn level for rounds: a unit is relevant if it contains a gold turn (nDCG, precision); recall_any/all ask
 *   whether any/every gold turn lies in the top-k units. For one-turn units this is exactly the official metric.
 * - In `official` mode the session label of a unit follows the official renaming: the units of a gold session
 *   that contain no gold turn are labelled as a separate pseudo-session (officially `noans_<id>`), which is not
 *   gold and counts as one more distinct session when k is grown.
 * - Skips: abstention questions count at no level (rows are still returned when gold exists); a level whose gold
 *   is empty has no rows and does not count (`no-gold`), e.g. LongMemEval questions whose evidence is only in
 *   assistant turns when the index holds user turns (dropped by run_retrieval.py b60a5b7).
 */
export function evaluateRetrieval(input: RetrievalEvalInput): RetrievalEval {
  const mode = input.mode ?? 'official';
  const ks = input.ks ?? OFFICIAL_KS;
  const gold = deriveRetrievalGold(input.gold, indexedTurns(input.indexed), mode);
  const rows: RetrievalMetricRow[] = [];
  const levels: LevelVerdict[] = [];
  const verdict = (level: RetrievalLevel, hasGold: boolean): boolean => {
    if (input.gold.isAbstention) levels.push({ level, counted: false, skipReason: 'abstention' });
    else if (!hasGold) levels.push({ level, counted: false, skipReason: 'no-gold' });
    else levels.push({ level, counted: true });
    return hasGold;
  };
  const push = (level: RetrievalLevel, metric: RetrievalMetric, k: number, value: number): void => {
    rows.push({ level, metric, k, value });
  };

  if (input.granularity === 'session') {
    if (verdict('session', gold.sessions.size > 0)) {
      const ranked = input.ranked.map((u) => u.sessionId);
      const nRelevant = input.indexed.filter((u) => gold.sessions.has(u.sessionId)).length;
      for (const k of ks) {
        push('session', 'recall_any', k, recallAny(ranked, gold.sessions, k));
        push('session', 'recall_all', k, recallAll(ranked, gold.sessions, k));
        push('session', 'ndcg_any', k, ndcgAny(ranked, gold.sessions, k, nRelevant));
        push('session', 'precision', k, precision(ranked, gold.sessions, k));
      }
      pushRankMetrics(push, 'session', distinctInOrder(ranked), gold.sessions, gold.supersededSessions, ks);
    }
    return { rows, levels, gold };
  }

  const isRelevant = (u: UnitRef): boolean => u.turnIds.some((t) => gold.turns.has(t));
  if (verdict('turn', gold.turns.size > 0)) {
    // Relevance is per unit; units are told apart by position (ids may repeat when a haystack repeats a session).
    const relevantIds = new Set(input.indexed.filter(isRelevant).map((u) => u.id));
    const nRelevant = input.indexed.filter(isRelevant).length;
    const rankedIds = input.ranked.map((u) => u.id);
    for (const k of ks) {
      const covered = new Set(input.ranked.slice(0, k).flatMap((u) => u.turnIds));
      const goldTurns = [...gold.turns];
      push('turn', 'recall_any', k, goldTurns.some((t) => covered.has(t)) ? 1 : 0);
      push('turn', 'recall_all', k, goldTurns.every((t) => covered.has(t)) ? 1 : 0);
      push('turn', 'ndcg_any', k, ndcgAny(rankedIds, relevantIds, k, nRelevant));
      push('turn', 'precision', k, precision(rankedIds, relevantIds, k));
    }
    pushTurnRankMetrics(push, input.ranked, gold, ks);
  }
  if (verdict('session', gold.sessions.size > 0)) {
    const label = (u: UnitRef): string =>
      mode === 'official' && gold.sessions.has(u.sessionId) && !isRelevant(u) ? u.sessionId + NOANS : u.sessionId;
    const rankedLabels = input.ranked.map(label);
    const nRelevant = input.indexed.filter((u) => gold.sessions.has(label(u))).length;
    const distinctSessions = [...new Set(input.ranked.map((u) => u.sessionId))];
    for (const k of ks) {
      const { effectiveK } = turnToSessionRanking(rankedLabels, (l) => l, k);
      push('session', 'recall_any', k, recallAny(rankedLabels, gold.sessions, effectiveK));
      push('session', 'recall_all', k, recallAll(rankedLabels, gold.sessions, effectiveK));
      push('session', 'ndcg_any', k, ndcgAny(rankedLabels, gold.sessions, effectiveK, nRelevant));
      // Precision over the first k distinct real sessions (no pseudo-sessions), divided by k.
      push('session', 'precision', k, precision(distinctSessions, gold.sessions, k));
      const window = distinctInOrder(rankedLabels.slice(0, effectiveK));
      pushRankMetrics(push, 'session', window, gold.sessions, gold.supersededSessions, [k]);
    }
  }
  return { rows, levels, gold };
}

type Push = (level: RetrievalLevel, metric: RetrievalMetric, k: number, value: number) => void;

/**
 * mrr, recall_frac and stale_above (rank-metrics.ts) over a ranking of distinct ids (sessions, or session labels cut
 * to the official effective k). An id holds current evidence when it is gold and not superseded; stale_above rows only
 * where the question has superseded evidence at this level.
 */
function pushRankMetrics(
  push: Push,
  level: RetrievalLevel,
  ranked: readonly string[],
  gold: ReadonlySet<string>,
  superseded: ReadonlySet<string> | undefined,
  ks: readonly number[],
): void {
  const relevant = ranked.map((id) => gold.has(id));
  const sup = superseded ?? new Set<string>();
  const current = new Set([...gold].filter((id) => !sup.has(id)));
  const holdings: Holding[] = ranked.map((id) => (current.has(id) ? 'current' : sup.has(id) ? 'superseded' : 'none'));
  for (const k of ks) {
    push(level, 'mrr', k, reciprocalRank(relevant, k));
    push(level, 'recall_frac', k, recallFraction(new Set(ranked.slice(0, k)), gold));
    if (sup.size > 0 && current.size > 0) push(level, 'stale_above', k, staleAbove(holdings, k));
  }
}

/**
 * The same at turn level: a unit is relevant when it holds a gold turn, current when it holds a gold turn that is not
 * superseded, superseded when it holds a superseded turn and no current one; recall_frac counts gold turns covered.
 */
function pushTurnRankMetrics(push: Push, ranked: readonly UnitRef[], gold: RetrievalGold, ks: readonly number[]): void {
  const sup = gold.supersededTurns ?? new Set<string>();
  const current = new Set([...gold.turns].filter((t) => !sup.has(t)));
  const relevant = ranked.map((u) => u.turnIds.some((t) => gold.turns.has(t)));
  const holdings: Holding[] = ranked.map((u) =>
    u.turnIds.some((t) => current.has(t)) ? 'current' : u.turnIds.some((t) => sup.has(t)) ? 'superseded' : 'none',
  );
  for (const k of ks) {
    push('turn', 'mrr', k, reciprocalRank(relevant, k));
    push('turn', 'recall_frac', k, recallFraction(new Set(ranked.slice(0, k).flatMap((u) => u.turnIds)), gold.turns));
    if (sup.size > 0 && current.size > 0) push('turn', 'stale_above', k, staleAbove(holdings, k));
  }
}

export interface AveragedMetric {
  level: RetrievalLevel;
  metric: RetrievalMetric;
  k: number;
  mean: number;
  /** Questions averaged. */
  n: number;
}

/** Mean of every (level, metric, k) over the questions that count at that level (`run_retrieval.py` `main()`). */
export function averageRetrieval(evals: readonly RetrievalEval[]): AveragedMetric[] {
  const acc = new Map<string, AveragedMetric & { sum: number }>();
  for (const e of evals) {
    const counted = new Set(e.levels.filter((l) => l.counted).map((l) => l.level));
    for (const r of e.rows) {
      if (!counted.has(r.level)) continue;
      const key = `${r.level}|${r.metric}|${r.k}`;
      const a = acc.get(key) ?? { level: r.level, metric: r.metric, k: r.k, mean: 0, n: 0, sum: 0 };
      a.sum += r.value;
      a.n += 1;
      acc.set(key, a);
    }
  }
  return [...acc.values()].map(({ sum, ...a }) => ({ ...a, mean: sum / a.n }));
}
