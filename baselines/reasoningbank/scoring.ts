/**
 * ReasoningBank's retrieval scores (the source design's "检索策略" (retrieval strategy); hanw39/ReasoningBank-MCP
 * src/retrieval/strategies/{cosine,hybrid}_retrieval.py @ e646306):
 *
 *   cosine: score = cos(query, item)
 *   hybrid: score = 0.6·cos + 0.2·confidence + 0.15·success_bonus − 0.05·(1 − time_decay)
 *     confidence    = 0.5 + 0.5·tanh(retrieval_count / 10)          ∈ [0.5, 1)
 *     success_bonus = 1.0 for a success item, −0.5 for a failure item
 *     time_decay    = exp(−ln 2 / halflife · days_elapsed), halflife 30 days, days_elapsed = whole days (Python's
 *                     timedelta.days) from the item's timestamp to "now" (here: the question's date)
 *
 * The same scores drive the semantic dedup (≥ 0.90 among the top 5) and the merge trigger (≥ 0.85, at least 3), as
 * in the source, where both call the configured retrieval strategy with the new item's embedding as the query.
 */
export type RetrievalStrategy = 'cosine' | 'hybrid';

export interface HybridWeights {
  semantic: number;
  confidence: number;
  success: number;
  recency: number;
}

export const DAY_MS = 86_400_000;

export function confidence(retrievalCount: number): number {
  return 0.5 + 0.5 * Math.tanh(retrievalCount / 10);
}

/** exp(−ln2/halflife · whole days elapsed); an item dated after "now" counts as 0 days old. */
export function timeDecay(createdMs: number, nowMs: number, halflifeDays: number): number {
  const days = Math.max(0, Math.floor((nowMs - createdMs) / DAY_MS));
  return Math.exp((-Math.log(2) / halflifeDays) * days);
}

export interface ItemState {
  createdMs: number;
  success: boolean;
  retrievalCount: number;
}

export function itemScore(
  semantic: number,
  item: ItemState,
  nowMs: number,
  s: { strategy: RetrievalStrategy; weights: HybridWeights; halflifeDays: number },
): number {
  if (s.strategy === 'cosine') return semantic;
  const w = s.weights;
  return (
    w.semantic * semantic +
    w.confidence * confidence(item.retrievalCount) +
    w.success * (item.success ? 1.0 : -0.5) -
    w.recency * (1 - timeDecay(item.createdMs, nowMs, s.halflifeDays))
  );
}
