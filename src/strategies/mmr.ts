/**
 * Maximal marginal relevance (Carbonell & Goldstein 1998, "The use of MMR, diversity-based reranking for reordering
 * documents and producing summaries", SIGIR): pick, one at a time, the candidate maximising
 * λ·relevance − (1 − λ)·max similarity to what is already picked. The multi-hop strategy uses it to merge its
 * per-step lists into one list that covers several sessions instead of giving each step a slice of the budget.
 * Similarity is the cosine of the unit vectors, and 1 for two units of one session when units are finer than a
 * session (so a second turn of an already covered session must be clearly more relevant to be picked).
 * λ = 0.7 is the value commonly used for retrieval (not tuned here). Ties keep the input order; deterministic.
 */
import { dot } from '../index/vectors.ts';

export interface MmrItem {
  sessionId: string;
  relevance: number;
  vector: Float32Array;
}

/** Indices of `items` in MMR order, at most n. */
export function mmrOrder(items: readonly MmrItem[], n: number, lambda = 0.7, sameSessionIsDuplicate = true): number[] {
  const picked: number[] = [];
  const maxSim = new Float64Array(items.length).fill(-Infinity);
  const left = new Set(items.map((_, i) => i));
  while (picked.length < n && left.size > 0) {
    let best = -1;
    let bestValue = -Infinity;
    for (const i of left) {
      const penalty = picked.length === 0 ? 0 : maxSim[i]!;
      const value = lambda * items[i]!.relevance - (1 - lambda) * penalty;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    picked.push(best);
    left.delete(best);
    const p = items[best]!;
    for (const i of left) {
      const sim = sameSessionIsDuplicate && items[i]!.sessionId === p.sessionId ? 1 : dot(items[i]!.vector, p.vector);
      if (sim > maxSim[i]!) maxSim[i] = sim;
    }
  }
  return picked;
}
