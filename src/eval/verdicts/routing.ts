/**
 * What routing did, from the retrieval rows (pure): the route × gold-type table of a method, and how many questions
 * an ablation's ranking differs on from the full system's — an ablation that touches 7 of 23 questions can move a
 * type's mean by at most 7/23, which its verdict should say.
 */
import type { QuestionFact, RetrievalFact } from './inputs.ts';

export interface RouteCell {
  route: string;
  adaptType: string;
  n: number;
}

/** Questions per (route taken, gold type) of one method of one run on one dataset. */
export function routeByGoldType(
  retrievals: readonly RetrievalFact[],
  questions: readonly QuestionFact[],
  runId: string,
  dataset: string,
  method: string,
): RouteCell[] {
  const typeOf = new Map(
    questions.filter((q) => q.runId === runId && q.dataset === dataset).map((q) => [q.questionId, q.adaptType]),
  );
  const counts = new Map<string, RouteCell>();
  for (const r of retrievals) {
    if (r.runId !== runId || r.dataset !== dataset || r.method !== method || r.error) continue;
    const adaptType = typeOf.get(r.questionId);
    if (adaptType === undefined) continue;
    const route = r.route ?? '(none)';
    const key = `${route}\t${adaptType}`;
    const c = counts.get(key) ?? { route, adaptType, n: 0 };
    c.n++;
    counts.set(key, c);
  }
  return [...counts.values()].sort((a, b) =>
    a.route < b.route ? -1 : a.route > b.route ? 1 : a.adaptType < b.adaptType ? -1 : a.adaptType > b.adaptType ? 1 : 0,
  );
}

export interface RankingChanges {
  adaptType: string;
  changed: number;
  total: number;
}

/**
 * Per gold type (and `all`): questions both runs retrieved for without error, and on how many the ranked unit ids
 * differ between `variant` and `base` (same method id in two runs of a sweep).
 */
export function rankingChanges(
  retrievals: readonly RetrievalFact[],
  questions: readonly QuestionFact[],
  variant: { runId: string; method: string },
  base: { runId: string; method: string },
  dataset: string,
): RankingChanges[] {
  const typeOf = new Map(
    questions.filter((q) => q.runId === variant.runId && q.dataset === dataset).map((q) => [q.questionId, q.adaptType]),
  );
  const baseRanking = new Map(
    retrievals
      .filter((r) => r.runId === base.runId && r.dataset === dataset && r.method === base.method && !r.error)
      .map((r) => [r.questionId, r.ranking]),
  );
  const per = new Map<string, RankingChanges>();
  const bump = (t: string, changed: boolean): void => {
    const c = per.get(t) ?? { adaptType: t, changed: 0, total: 0 };
    c.total++;
    if (changed) c.changed++;
    per.set(t, c);
  };
  for (const r of retrievals) {
    if (r.runId !== variant.runId || r.dataset !== dataset || r.method !== variant.method || r.error) continue;
    const b = baseRanking.get(r.questionId);
    const t = typeOf.get(r.questionId);
    if (b === undefined || t === undefined) continue;
    bump(t, b !== r.ranking);
    bump('all', b !== r.ranking);
  }
  return [...per.values()].sort((a, b) =>
    a.adaptType === 'all' ? 1 : b.adaptType === 'all' ? -1 : a.adaptType < b.adaptType ? -1 : 1,
  );
}
