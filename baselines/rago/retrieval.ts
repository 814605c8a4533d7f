/**
 * rago's `RetrieveAndInject` ranking (the source design): a session-scoped half and a global half of the
 * `maxMemories` budget, merged, deduplicated and ranked by score.
 *
 *   session half (⌊k/2⌋): memories of the question's session, by cosine (the spec's `SearchBySession` has no floor);
 *   global half (k − ⌊k/2⌋): vector hits with cosine ≥ min_score (0.7) merged with keyword hits (BM25 > 0, the FTS5
 *     index of §2.1), each list cut to the half, their union ranked by cosine and cut to the half;
 *   merge (`mergeAndRank`): each memory once, ranked by score, ties in memory order.
 *
 * The score is the spec's one score, the cosine, for every memory: the spec gives no rule for putting FTS5 ranks on
 * the cosine scale, so keyword search acts as a second source of candidates — it brings in memories that share the
 * question's words even when their cosine is under the 0.7 floor. Deviation: the spec gives each half
 * `maxMemories/2` (integer division), which leaves a slot unused for odd k and nothing at all for k = 1; the global
 * half takes the remainder.
 */
export interface Candidate {
  cosine: number;
  /** BM25 score of the memory for the question (0: no shared term). */
  keyword: number;
  /** The memory belongs to the question's session. */
  inScope: boolean;
}

export interface Ranked {
  index: number;
  score: number;
  via: ('session' | 'vector' | 'keyword')[];
}

function best(idx: number[], key: (i: number) => number, n: number): number[] {
  return [...idx].sort((a, b) => key(b) - key(a) || a - b).slice(0, Math.max(0, n));
}

export function rankMemories(c: readonly Candidate[], k: number, minScore: number): Ranked[] {
  const all = c.map((_, i) => i);
  const sessionHalf = Math.floor(k / 2);
  const globalHalf = k - sessionHalf;
  const cos = (i: number) => c[i]!.cosine;
  const session = best(
    all.filter((i) => c[i]!.inScope),
    cos,
    sessionHalf,
  );
  const vector = best(
    all.filter((i) => c[i]!.cosine >= minScore),
    cos,
    globalHalf,
  );
  const keyword = best(
    all.filter((i) => c[i]!.keyword > 0),
    (i) => c[i]!.keyword,
    globalHalf,
  );
  const global = best([...new Set([...vector, ...keyword])], cos, globalHalf);
  const via = new Map<number, Ranked['via']>();
  const tag = (list: number[], v: Ranked['via'][number], keep: Set<number>) => {
    for (const i of list) if (keep.has(i)) via.set(i, [...(via.get(i) ?? []), v]);
  };
  const chosen = new Set([...session, ...global]);
  tag(session, 'session', chosen);
  tag(vector, 'vector', new Set(global));
  tag(keyword, 'keyword', new Set(global));
  return best([...chosen], cos, chosen.size).map((index) => ({
    index,
    score: c[index]!.cosine,
    via: via.get(index) ?? [],
  }));
}
