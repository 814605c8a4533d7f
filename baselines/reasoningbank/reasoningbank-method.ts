/**
 * `reasoningbank`: the ReasoningBank memory (Ouyang et al. 2025, arXiv 2509.25140) as its MCP server implements it
 * (its source design; hanw39/ReasoningBank-MCP). Memorising (once per haystack, bank.ts): memory items distilled per session,
 * semantic dedup, merging. Answering (`retrieve_memory`, src/tools/retrieve_memory.py @ 74be881): the strategy's top k
 * items (scoring.ts), those under `min_score_threshold` dropped and counted (`filteredCount`); with none left the reader
 * gets the explicit no-memory line. Items expand to their source units. An item's retrieval count (confidence) counts
 * the earlier questions that were given it (derived-memories.ts AccessLog).
 *
 * Offline (no LLM role): one item per unit and voting merge; marked `degraded: offline`.
 */
import { z } from 'zod';
import type { Method, MethodFactoryContext } from '../../src/core/interfaces.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { formatDate, NO_MEMORY_LINE } from '../../src/core/render.ts';
import { haystackKey } from '../../src/index/per-haystack.ts';
import { perHaystack } from '../../src/index/per-haystack.ts';
import { AccessLog, expandToUnits, seedCapabilities } from '../derived-memories.ts';
import { LlmModeOptionsShape, resolveLlmMode } from '../llm-mode.ts';
import { buildBank, scoreBank } from './bank.ts';
import { formatMemoriesForPrompt } from './prompts.ts';

const unit01 = z.number().min(0).max(1);

export const ReasoningBankOptionsSchema = z
  .object({
    ...LlmModeOptionsShape,
    /** config.yaml `retrieval.strategy`. */
    strategy: z.enum(['cosine', 'hybrid']).default('hybrid'),
    /** `retrieval.min_score_threshold`. */
    minScoreThreshold: unit01.default(0.85),
    /** `retrieval.hybrid.weights`. */
    weights: z
      .object({
        semantic: z.number().default(0.6),
        confidence: z.number().default(0.2),
        success: z.number().default(0.15),
        recency: z.number().default(0.05),
      })
      .strict()
      .default({ semantic: 0.6, confidence: 0.2, success: 0.15, recency: 0.05 }),
    /** `retrieval.hybrid.time_decay_halflife` (days). */
    timeDecayHalflifeDays: z.number().positive().default(30),
    /** `extraction.max_memories_per_trajectory`. */
    maxItemsPerSession: z.number().int().positive().default(3),
    /** `memory_manager.deduplication` (semantic, on extraction). */
    dedup: z.boolean().default(true),
    dedupThreshold: unit01.default(0.9),
    dedupTopK: z.number().int().positive().default(5),
    /** `memory_manager.merge` (auto_execute); strategy `llm` with an LLM, `voting` offline unless set. */
    merge: z.boolean().default(true),
    mergeStrategy: z.enum(['llm', 'voting']).optional(),
    mergeThreshold: unit01.default(0.85),
    mergeMinSimilar: z.number().int().positive().default(3),
    /** `extraction.extract_temperature`, `memory_manager.merge.llm.temperature`. */
    extractTemperature: z.number().min(0).max(2).default(1.0),
    mergeTemperature: z.number().min(0).max(2).default(0.7),
  })
  .strict();
export type ReasoningBankOptions = z.output<typeof ReasoningBankOptionsSchema>;

export function createReasoningBankMethod(o: ReasoningBankOptions, c: MethodFactoryContext): Method {
  const { role } = resolveLlmMode(o, c);
  const scoring = { strategy: o.strategy, weights: o.weights, halflifeDays: o.timeDecayHalflifeDays };
  const accesses = new AccessLog();
  const bankFor = perHaystack((index, ctx) =>
    buildBank(index, ctx, {
      role,
      ...scoring,
      maxItemsPerSession: o.maxItemsPerSession,
      dedup: o.dedup,
      dedupThreshold: o.dedupThreshold,
      dedupTopK: o.dedupTopK,
      merge: o.merge,
      mergeStrategy: o.mergeStrategy ?? (role === undefined ? 'voting' : 'llm'),
      mergeThreshold: o.mergeThreshold,
      mergeMinSimilar: o.mergeMinSimilar,
      extractTemperature: o.extractTemperature,
      mergeTemperature: o.mergeTemperature,
    }),
  );
  return {
    capabilities: seedCapabilities(role),
    async memorise(index, ctx) {
      await bankFor(index, ctx);
    },
    async run(query, index, ctx) {
      const bank = await bankFor(index, ctx);
      const key = haystackKey(index);
      const earlier = accesses.before(key, query.askedAt);
      const [qv] = bank.items.length === 0 ? [] : await index.embedder.embed([query.text]);
      const top = qv ? scoreBank(bank.items, qv, Date.parse(query.askedAt), scoring, earlier.count).slice(0, c.k) : [];
      const kept = top.filter((r) => r.score >= o.minScoreThreshold);
      const filteredCount = top.length - kept.length;
      accesses.record(
        key,
        query.id,
        query.askedAt,
        kept.map((r) => r.item.id),
      );
      const notes = {
        strategy: o.strategy,
        minScoreThreshold: o.minScoreThreshold,
        filteredCount,
        bankSize: bank.items.length,
        memoriseMs: Math.round(bank.stats.memoriseMs),
        extracted: bank.stats.extracted,
        duplicatesSkipped: bank.stats.duplicatesSkipped,
        merges: bank.stats.merges,
        extractFailures: bank.stats.extractFailures,
        earlierQuestions: earlier.questions,
        retrieved: kept.map((r) => ({ id: r.item.id, score: Math.round(r.score * 1e4) / 1e4 })),
      };
      if (kept.length === 0) return { retrieval: { units: [], noMemory: true, context: NO_MEMORY_LINE, notes } };
      const units = expandToUnits(
        kept.map((r) => ({ score: r.score, unitIds: r.item.unitIds })),
        index,
        c.k,
      );
      const context = formatMemoriesForPrompt(
        kept.map((r) => ({ ...r.item, date: formatDate(new Date(r.item.createdMs).toISOString()) })),
      );
      return { retrieval: { units, noMemory: false, context, notes } };
    },
  };
}

export const reasoningBankEntry = defineMethod({
  name: 'reasoningbank',
  description:
    'ReasoningBank (its source design): memory items distilled per session, cosine or hybrid scoring, min-score threshold, semantic dedup and merge',
  optionsSchema: ReasoningBankOptionsSchema,
  examples: [
    { label: 'defaults', options: {} },
    { label: 'cosine, no threshold', options: { strategy: 'cosine', minScoreThreshold: 0 } },
  ],
  create: (options, c) => createReasoningBankMethod(options, c),
});
