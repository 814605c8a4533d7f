/**
 * Lexical evidence for the abstention decision: how much of what the question asks about the retrieved memories
 * actually name. Coverage = the mean over the question's entities e (text.ts: stemmed English content words,
 * segmented Chinese words) of found(e), the best overlap of e with any of the top memories (1 verbatim; a Chinese
 * word half-matched by its characters counts its share). Unweighted on purpose: an idf weighting (tried first) lets
 * one category word the memories never use ("cuisine", 菜系 — they say "Japanese restaurant", 日料) outweigh
 * everything they do name, and answerable aggregation questions abstained.
 *
 * Why: cosines do not separate answerable from unanswerable questions on the plan's own example — with the offline
 * SIF embedder the blood-type question's best memory ("I started running", cosine 0.83) scores above the cat
 * question's (0.75), and Chinese cosines of the hashed features live on another scale than the English ones the
 * thresholds were calibrated on.
 */
import type { MemoryUnit, ScoredUnit } from '../core/types.ts';
import { countOverlap, extractEntities, unitKeys, type TextKeys } from './text.ts';

const keysOf = (unit: MemoryUnit): TextKeys => unitKeys(unit);

export interface Coverage {
  /** In [0, 1]; undefined when the question has no content word. */
  value: number | undefined;
  entities: string[];
  missing: string[];
}

export function lexicalCoverage(question: string, top: readonly ScoredUnit[]): Coverage {
  const entities = extractEntities(question);
  if (entities.length === 0) return { value: undefined, entities, missing: [] };
  let covered = 0;
  const missing: string[] = [];
  for (const e of entities) {
    const found = Math.min(1, Math.max(0, ...top.map((t) => countOverlap([e], keysOf(t.unit)))));
    covered += found;
    if (found === 0) missing.push(e);
  }
  return { value: covered / entities.length, entities, missing };
}
