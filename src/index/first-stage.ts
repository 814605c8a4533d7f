/**
 * The first-stage retriever under the AdaptMR strategies (`firstStage` option of the `adaptmr` and `strategy`
 * methods): `embedding` (the index's cosine ranking — the default, today's behaviour), `bm25` (the index's Okapi
 * BM25, every unit ranked as the `bm25` baseline ranks them) or `hybrid` (reciprocal-rank fusion of the two).
 *
 * A first stage is a view of a memory index whose `semantic` / `semanticScores` — the candidate ranking every
 * strategy starts from — come from the chosen retriever; everything else (units, vectors for MMR and clustering,
 * BM25) is the index's own. So an experiment can measure the routing gain over each base (AdaptMR over BM25 against
 * BM25) instead of mixing "routing helps" with "which first-stage retriever". The abstention decision keeps reading
 * cosines (`embeddingIndexOf`): its thresholds are calibrated on cosines and mean nothing on another scale.
 *
 * Reciprocal-rank fusion: score(u) = Σ_lists 1 / (RRF_K + rank_list(u)), ranks from 1, a unit absent from a list
 * adding nothing (Cormack, Clarke & Büttcher 2009, "Reciprocal rank fusion outperforms Condorcet and individual rank
 * learning methods", SIGIR '09, which fixes k = 60). The cosine list ranks every unit; the BM25 list only units that
 * share a term with the query (score > 0), as a keyword engine returns them.
 */
import { z } from 'zod';
import type { MemoryIndex } from '../core/interfaces.ts';
import type { ScoredUnit } from '../core/types.ts';
import { rankIndices, topK } from './top-k.ts';

export const FIRST_STAGES = ['embedding', 'bm25', 'hybrid'] as const;
export type FirstStage = (typeof FIRST_STAGES)[number];

/** The option as the methods declare it; absent = `embedding`, so existing experiment files keep their numbers. */
export const FirstStageSchema = z.enum(FIRST_STAGES).default('embedding');

/** RRF's constant k, as fixed by Cormack, Clarke & Büttcher (SIGIR 2009). */
export const RRF_K = 60;

const EMBEDDING = Symbol('embedding index');
type View = MemoryIndex & { readonly [EMBEDDING]: MemoryIndex };

/** One view per index and first stage, so work memoised per index object (perHaystack) is shared by its questions. */
const views = new WeakMap<MemoryIndex, Map<FirstStage, MemoryIndex>>();

/** The index beneath a first-stage view (the index itself when it is not one): cosines for the abstention thresholds. */
export function embeddingIndexOf(index: MemoryIndex): MemoryIndex {
  return (index as Partial<View>)[EMBEDDING] ?? index;
}

/** RRF scores of every unit, aligned with `index.units`. */
export async function hybridScores(index: MemoryIndex, text: string): Promise<Float32Array> {
  const n = index.units.length;
  const out = new Float32Array(n);
  const cosine = rankIndices(await index.semanticScores(text), n);
  const bm25 = rankIndices(index.keywordScores(text), n, { dropZero: true });
  cosine.forEach((i, r) => (out[i]! += 1 / (RRF_K + r + 1)));
  bm25.forEach((i, r) => (out[i]! += 1 / (RRF_K + r + 1)));
  return out;
}

/** The index as seen through `stage`; `embedding` returns the index itself. */
export function withFirstStage(index: MemoryIndex, stage: FirstStage): MemoryIndex {
  const base = embeddingIndexOf(index);
  if (stage === 'embedding') return base;
  let byStage = views.get(base);
  if (!byStage) views.set(base, (byStage = new Map()));
  const cached = byStage.get(stage);
  if (cached) return cached;
  // The last query's scores: a strategy asks for the same question's ranking several times (candidates, entity
  // rerank, abstention evidence).
  let last: { text: string; scores: Promise<Float32Array> } | undefined;
  const scoresOf = (text: string): Promise<Float32Array> => {
    if (last?.text !== text) {
      const scores =
        stage === 'bm25' ? Promise.resolve(Float32Array.from(base.keywordScores(text))) : hybridScores(base, text);
      scores.catch(() => (last = undefined));
      last = { text, scores };
    }
    return last.scores;
  };
  const view: View = {
    [EMBEDDING]: base,
    get spec() {
      return base.spec;
    },
    get units() {
      return base.units;
    },
    get embedder() {
      return base.embedder;
    },
    unit: (id) => base.unit(id),
    keyword: (text, k) => base.keyword(text, k),
    keywordScores: (text) => base.keywordScores(text),
    vectors: () => base.vectors(),
    semanticScores: (text) => scoresOf(text),
    async semantic(text: string, k: number): Promise<ScoredUnit[]> {
      // BM25 ranks from its float64 scores, so its order (and ties, earlier unit first) is the `bm25` baseline's.
      if (stage === 'bm25') return topK(base.keywordScores(text), k, base.units);
      return topK(await scoresOf(text), k, base.units);
    },
  };
  byStage.set(stage, view);
  return view;
}
