/**
 * Strategy 1, factual extraction (plan §2.3 策略 1): extract the query's entities, retrieve 2K candidates
 * semantically, rerank by entity overlap with `score × (1 + w × overlap)` (plan: w = 0.3), return the top K.
 *
 * Entities come from the LLM (`mode: llm`) or from the offline extractor in text.ts (`mode: offline`). A unit's
 * overlap counts the query entities its text contains. Negative cosines: multiplying by (1 + w·overlap) would push a
 * matching unit *down*, so for score < 0 the score is divided instead; overlap then always helps (monotone), and for
 * score ≥ 0 it is exactly the plan's formula. `entityWeight: 0` is the plan's "w/o entity reranking" ablation.
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { Query, Retrieval, ScoredUnit } from '../core/types.ts';
import { askJson, strategyClient } from './llm-step.ts';
import { renderContext } from './render.ts';
import type { Strategy } from '../core/interfaces.ts';
import { countOverlap, extractEntities, memoriseUnitKeys, normaliseWord, unitKeys } from './text.ts';

export const FactualOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** Plan: 0.3. */
    entityWeight: z.number().min(0).default(0.3),
    /** Candidates = candidateFactor × K (plan: 2K). */
    candidateFactor: z.number().min(1).default(2),
  })
  .strict();
export type FactualOptions = z.output<typeof FactualOptionsSchema>;

const EntitiesSchema = z.object({ entities: z.array(z.string()) });

export function entityPrompt(question: string): string {
  return (
    'Extract the key entities and concepts (people, places, objects, named things, topics) from the question below. ' +
    'Leave out question words and the speaker ("I", "my").\n\n' +
    `Question: ${question}\n\nReturn JSON: {"entities": ["..."]}`
  );
}

/** LLM entities are phrases; matching uses their normalised words so "my cat's name" style replies still match. */
function normaliseLlmEntities(entities: readonly string[]): string[] {
  const out = new Set<string>();
  for (const e of entities) {
    const words = e.split(/\s+/u).filter(Boolean).map(normaliseWord);
    const joined = words.join(' ').trim();
    if (joined) out.add(joined);
  }
  return [...out];
}

export async function queryEntities(
  query: Query,
  mode: 'llm' | 'offline',
  ctx: Ctx,
  stage: string,
): Promise<{ entities: string[]; fallback?: string }> {
  if (mode === 'offline') return { entities: extractEntities(query.text) };
  const reply = await askJson(strategyClient(ctx, 'factual'), ctx, stage, entityPrompt(query.text), EntitiesSchema);
  if (!reply.ok) return { entities: extractEntities(query.text), fallback: `unparsable reply: ${reply.reply}` };
  return { entities: normaliseLlmEntities(reply.value.entities) };
}

/** The plan's rerank, exported for tests: score × (1 + w·overlap), or ÷ for negative scores (see header). */
export function entityBoost(score: number, overlap: number, weight: number): number {
  const factor = 1 + weight * overlap;
  return score >= 0 ? score * factor : score / factor;
}

export function rerankByEntities(
  candidates: readonly ScoredUnit[],
  entities: readonly string[],
  weight: number,
): ScoredUnit[] {
  const scored = candidates.map((c, rank) => ({
    unit: c.unit,
    score: entityBoost(c.score, countOverlap(entities, unitKeys(c.unit)), weight),
    rank,
  }));
  // Stable: equal scores keep the semantic rank.
  scored.sort((a, b) => b.score - a.score || a.rank - b.rank);
  return scored.map(({ unit, score }) => ({ unit, score }));
}

/**
 * The entity-focused first stage the other offline strategies share: `factor`·n semantic candidates reranked by the
 * text's own entities (the plan's strategy-1 rerank), top n. Measured on LongMemEval S and LoCoMo, this rerank is what
 * separates the right memory when SIF cosines are flat (docs/adaptmr-offline.md), so temporal, update and multi-hop
 * build their type-specific steps on it rather than on the bare cosine (`baseRanking: semantic` restores that).
 */
export async function entityRanked(
  text: string,
  index: MemoryIndex,
  n: number,
  weight = 0.3,
  factor = 2,
): Promise<ScoredUnit[]> {
  const candidates = await index.semantic(text, Math.ceil(factor * n));
  return rerankByEntities(candidates, extractEntities(text), weight).slice(0, n);
}

export const BaseRankingSchema = z.enum(['entity', 'semantic']);
export type BaseRanking = z.infer<typeof BaseRankingSchema>;

/** The base ranking of a text: entity-reranked (default) or the bare semantic top n. */
export function baseRanked(base: BaseRanking, text: string, index: MemoryIndex, n: number): Promise<ScoredUnit[]> {
  return base === 'entity' ? entityRanked(text, index, n) : index.semantic(text, n);
}

export function createFactual(options: FactualOptions): Strategy {
  return {
    name: 'factual',
    mode: options.mode,
    memorise: (index) => memoriseUnitKeys(index.units),
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      const { entities, fallback } =
        options.entityWeight > 0
          ? await queryEntities(query, options.mode, ctx, 'strategy.factual.entities')
          : { entities: [] };
      const candidates = await index.semantic(query.text, Math.ceil(options.candidateFactor * k));
      const units = rerankByEntities(candidates, entities, options.entityWeight).slice(0, k);
      return {
        units,
        noMemory: false,
        context: renderContext(units, 'rank'),
        notes: {
          strategy: 'factual',
          contextOrder: 'rank',
          entities,
          entityWeight: options.entityWeight,
          candidates: candidates.length,
          ...(fallback ? { llmFallback: fallback } : {}),
        },
      };
    },
  };
}
