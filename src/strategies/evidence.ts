/**
 * Lexical evidence for the abstention decision: how much of what the question asks about the retrieved memories
 * actually name. Coverage = Σ idf(e)·found(e) / Σ idf(e) over the question's entities e (text.ts: stemmed English
 * content words, segmented Chinese words), found(e) = the best overlap of e with any of the top memories (1 verbatim;
 * a Chinese word half-matched by its characters counts its share), idf(e) = ln(1 + (N − df + 0.5)/(df + 0.5)) over
 * the N units of the haystack (the non-negative BM25 idf of Lucene), so a rare word the question hinges on ("blood
 * type", "dog") weighs more than a common one ("name").
 *
 * Why: cosines do not separate answerable from unanswerable questions on the plan's own example — with the offline
 * SIF embedder the blood-type question's best memory ("I started running", cosine 0.83) scores above the cat
 * question's (0.75), and Chinese cosines of the hashed features live on another scale than the English ones the
 * thresholds were calibrated on.
 */
import type { MemoryUnit, ScoredUnit } from '../core/types.ts';
import { countOverlap, extractEntities, textKeys, type TextKeys } from './text.ts';

const keysCache = new WeakMap<MemoryUnit, TextKeys>();
function keysOf(unit: MemoryUnit): TextKeys {
  let k = keysCache.get(unit);
  if (!k) {
    k = textKeys(unit.text);
    keysCache.set(unit, k);
  }
  return k;
}

export interface Coverage {
  /** In [0, 1]; undefined when the question has no content word. */
  value: number | undefined;
  entities: string[];
  missing: string[];
}

export function lexicalCoverage(question: string, top: readonly ScoredUnit[], haystack: readonly MemoryUnit[]): Coverage {
  const entities = extractEntities(question);
  if (entities.length === 0) return { value: undefined, entities, missing: [] };
  const n = haystack.length;
  let total = 0;
  let covered = 0;
  const missing: string[] = [];
  for (const e of entities) {
    let df = 0;
    for (const u of haystack) if (countOverlap([e], keysOf(u)) >= 1) df++;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const found = Math.min(1, Math.max(0, ...top.map((t) => countOverlap([e], keysOf(t.unit)))));
    total += idf;
    covered += idf * found;
    if (found === 0) missing.push(e);
  }
  return { value: total > 0 ? covered / total : undefined, entities, missing };
}
