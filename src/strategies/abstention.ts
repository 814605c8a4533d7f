/**
 * Strategy 5, abstention (plan §2.3 策略 5): retrieve top-K, compare the top-1 cosine with θ_high / θ_low:
 * ≥ θ_high → relevant, return top-K; < θ_low → an explicit "no relevant memory" result; in between → the LLM relevance
 * check on the top 3 (the plan's `llm_relevance_check`, `mode: llm`) or an offline rule.
 *
 * Lexical evidence (evidence.ts: the idf-weighted share of the question's entities the top memories name) moves a
 * question between bands, because cosines alone do not separate the plan's own example (the blood-type question's
 * best cosine is higher than the cat question's; Chinese cosines live on another scale): a high-band question whose
 * memories name none of its entities becomes uncertain, and a low-band question whose memories name at least
 * `minCoverage` of them becomes uncertain. Offline, the uncertain band is decided by coverage ≥ `minCoverage`
 * (the midpoint rule top-1 ≥ (θ_high + θ_low) / 2 when the question has no content word). `minCoverage: 0` turns the
 * lexical evidence off (the plan's cosine bands with the midpoint rule offline). The θ bands read the semantic top-1
 * cosine (the scale `adaptmr calibrate` fits); the evidence, the LLM check and the returned list use the
 * entity-ranked first stage of factual.ts (`baseRanking: semantic` = the bare cosine list).
 *
 * Thresholds are looked up by the index's embedder id: `thresholds` in the options, then `thresholdsFile` (written by
 * `adaptmr calibrate`; its entry must match the index granularity), then the plan's 0.85 / 0.60;
 * `notes.thresholdSource` says which applied.
 * `decideAbstention` is exported so the router can apply the same decision as a gate after any strategy.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { Query, Retrieval, RetrievalNotes, ScoredUnit } from '../core/types.ts';
import { embeddingIndexOf } from '../index/first-stage.ts';
import { lexicalCoverage } from './evidence.ts';
import { BaseRankingSchema, entityRanked } from './factual.ts';
import { askYesNo, strategyClient } from './llm-step.ts';
import { NO_MEMORY_LINE, renderContext } from './render.ts';
import { memoriseUnitKeys } from './text.ts';
import type { Strategy } from '../core/interfaces.ts';
import { PLAN_THRESHOLDS, readThresholdsFile, ThresholdPairSchema, type ThresholdPair } from './thresholds.ts';

export const AbstentionOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** θ per embedder id, e.g. `{ "wink-sif": { high: 0.8, low: 0.5 } }`. */
    thresholds: z.record(z.string(), ThresholdPairSchema).default({}),
    /** JSON file written by `adaptmr calibrate`. */
    thresholdsFile: z.string().optional(),
    /** Units shown to the LLM relevance check (plan: candidates[:3]); also the units whose words count as evidence. */
    checkTopN: z.number().int().positive().default(3),
    /** Share of the question's entities the top memories must name (see header); 0 = off. */
    minCoverage: z.number().min(0).max(1).default(0.5),
    /** The list returned when answering, and the evidence: entity-ranked (factual.ts, default) or the bare cosine. */
    baseRanking: BaseRankingSchema.default('entity'),
  })
  .strict();
export type AbstentionOptions = z.output<typeof AbstentionOptionsSchema>;

export interface AbstentionDecision {
  noMemory: boolean;
  band: 'high' | 'uncertain' | 'low' | 'empty';
  top1: number | null;
  thresholds: ThresholdPair;
  thresholdSource: 'options' | 'file' | 'plan-default';
  decidedBy: 'threshold' | 'llm' | 'midpoint' | 'coverage';
  /** Lexical coverage of the question's entities by the top memories (evidence.ts); null without content words or when off. */
  coverage: number | null;
}

/**
 * Instructions first, memories next, the question last: requests over the same memories then share their longest
 * prefix, which the provider's prompt cache bills at the cached-input price (docs/cost.md).
 */
export function relevancePrompt(question: string, memories: readonly ScoredUnit[]): string {
  return (
    'Do the memories below contain information about what the question after them asks? Answer YES if they do. ' +
    'Answer NO if they do not (even if they are indirectly related).\n\n' +
    `Memories:\n${memories.map((m) => m.unit.text).join('\n')}\n\nQuestion: ${question}\nAnswer YES or NO:`
  );
}

export interface AbstentionJudge {
  thresholdsFor(
    embedderId: string,
    granularity: string,
  ): { thresholds: ThresholdPair; source: AbstentionDecision['thresholdSource'] };
  /** `candidates`: the semantic ranking (its top-1 cosine meets the θ bands); `evidence`: the memories whose words
   * count as lexical evidence (default: the candidates). */
  decide(
    query: Query,
    candidates: readonly ScoredUnit[],
    index: Pick<MemoryIndex, 'embedder' | 'spec'>,
    ctx: Ctx,
    evidence?: readonly ScoredUnit[],
  ): Promise<AbstentionDecision>;
}

export function createAbstentionJudge(options: AbstentionOptions): AbstentionJudge {
  const file = options.thresholdsFile ? readThresholdsFile(options.thresholdsFile) : undefined;
  const thresholdsFor: AbstentionJudge['thresholdsFor'] = (embedderId, granularity) => {
    const own = options.thresholds[embedderId];
    if (own) return { thresholds: own, source: 'options' };
    const cal = file?.embedders[embedderId];
    if (cal) {
      // Cosines of turns and of whole sessions live on different scales: thresholds do not carry over.
      if (cal.granularity !== granularity) {
        throw new InputError(
          `thresholds for ${embedderId} were calibrated at ${cal.granularity} granularity, the index is ${granularity}`,
          options.thresholdsFile,
        );
      }
      return { thresholds: { high: cal.high, low: cal.low }, source: 'file' };
    }
    return { thresholds: PLAN_THRESHOLDS, source: 'plan-default' };
  };
  return {
    thresholdsFor,
    async decide(query, candidates, index, ctx, evidenceUnits = candidates) {
      const { thresholds, source } = thresholdsFor(index.embedder.id, index.spec.granularity);
      const top = candidates[0];
      const coverage =
        options.minCoverage > 0 && top
          ? lexicalCoverage(query.text, evidenceUnits.slice(0, options.checkTopN)).value
          : undefined;
      const base = { thresholds, thresholdSource: source, coverage: coverage ?? null };
      if (!top) return { ...base, noMemory: true, band: 'empty', top1: null, decidedBy: 'threshold' };
      const evidence = coverage === undefined ? undefined : coverage >= options.minCoverage;
      if (top.score >= thresholds.high && coverage !== 0)
        return { ...base, noMemory: false, band: 'high', top1: top.score, decidedBy: 'threshold' };
      if (top.score < thresholds.low && evidence !== true)
        return { ...base, noMemory: true, band: 'low', top1: top.score, decidedBy: 'threshold' };
      if (options.mode === 'llm') {
        const relevant = await askYesNo(
          strategyClient(ctx, 'abstention'),
          ctx,
          'strategy.abstention.check',
          relevancePrompt(query.text, evidenceUnits.slice(0, options.checkTopN)),
        );
        return { ...base, noMemory: !relevant, band: 'uncertain', top1: top.score, decidedBy: 'llm' };
      }
      if (evidence !== undefined)
        return { ...base, noMemory: !evidence, band: 'uncertain', top1: top.score, decidedBy: 'coverage' };
      const mid = (thresholds.high + thresholds.low) / 2;
      return { ...base, noMemory: top.score < mid, band: 'uncertain', top1: top.score, decidedBy: 'midpoint' };
    },
  };
}

/** The decision for a query on an index: the semantic top-1 cosine against θ, the entity-ranked top memories
 * (factual.ts) as evidence (used by the strategy and by the gate). */
export async function decideAbstention(
  judge: AbstentionJudge,
  query: Query,
  index: MemoryIndex,
  ctx: Ctx,
  k = 3,
): Promise<AbstentionDecision> {
  return judge.decide(
    query,
    await embeddingIndexOf(index).semantic(query.text, k),
    index,
    ctx,
    await entityRanked(query.text, index, k),
  );
}

export function noMemoryRetrieval(decision: AbstentionDecision, extraNotes: RetrievalNotes = {}): Retrieval {
  return { units: [], noMemory: true, context: NO_MEMORY_LINE, notes: { ...extraNotes, abstention: decision } };
}

export function createAbstention(options: AbstentionOptions): Strategy {
  const judge = createAbstentionJudge(options);
  return {
    name: 'abstention',
    mode: options.mode,
    memorise: (index) => memoriseUnitKeys(index.units),
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      // θ are calibrated on cosines: the decision reads the embedding ranking whatever the first stage (first-stage.ts).
      const cosine = embeddingIndexOf(index);
      const semantic = await cosine.semantic(query.text, k);
      const ranked =
        options.baseRanking === 'entity'
          ? await entityRanked(query.text, index, k)
          : cosine === index
            ? semantic
            : await index.semantic(query.text, k);
      const decision = await judge.decide(query, semantic, index, ctx, ranked);
      const notes: RetrievalNotes = { strategy: 'abstention', contextOrder: 'rank', baseRanking: options.baseRanking };
      if (decision.noMemory) return noMemoryRetrieval(decision, notes);
      return {
        units: ranked,
        noMemory: false,
        context: renderContext(ranked, 'rank'),
        notes: { ...notes, abstention: decision },
      };
    },
  };
}
