/**
 * `generative-agents`: the memory stream and reflection of Park et al. 2023 ("Generative Agents: Interactive
 * Simulacra of Human Behavior"), as specified in the Generative Agents source design. Memorising (once per haystack, memory-stream.ts):
 * observations with importance, reflections. Answering: score every memory at the question's date (scoring.ts),
 * optional filter statement, top k memories; reflections expand to their evidence units in the ranked list; the
 * retrieved memories' last-access times move to the question's date for questions asked later (derived-memories.ts
 * AccessLog: only questions asked strictly earlier count, so results do not depend on scheduling).
 *
 * Offline (no LLM role): importance is a constant (`offlineImportance`, so it drops out of the ranking) and there
 * is no reflection — the method is then recency + relevance, and is marked `degraded: offline`.
 */
import { z } from 'zod';
import type { Method, MethodFactoryContext } from '../../src/core/interfaces.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { formatDate, NO_MEMORY_LINE, renderUnit } from '../../src/core/render.ts';
import { haystackKey } from '../../src/index/per-haystack.ts';
import { perHaystack } from '../../src/index/per-haystack.ts';
import { AccessLog, expandToUnits, seedCapabilities } from '../derived-memories.ts';
import { dot } from '../../src/index/vectors.ts';
import { LlmModeOptionsShape, resolveLlmMode } from '../llm-mode.ts';
import { buildMemoryStream, type StreamMemory } from './memory-stream.ts';
import { FilterStatementSchema, parseFilterStatement, rankRows, relativeRecency, scoreRows } from './scoring.ts';

export const GenerativeAgentsOptionsSchema = z
  .object({
    ...LlmModeOptionsShape,
    /** the source design's `alpha_recency`, `alpha_importance`, `alpha_relevance` (usage example: 1, 1, 1). */
    alphaRecency: z.number().nonnegative().default(1),
    alphaImportance: z.number().nonnegative().default(1),
    alphaRelevance: z.number().nonnegative().default(1),
    /** the source design's `decay_factor`, applied per hour since last access. */
    decayFactor: z.number().gt(0).max(1).default(0.99),
    /** the source design's `retrieve_memories(filter_statement=…)`, e.g. "relevance > 0.5"; none by default. */
    filterStatement: FilterStatementSchema.optional(),
    /** Generate reflections (LLM mode only). */
    reflect: z.boolean().default(true),
    /** the source design's `generate_insight(context_window=15, threshold=3)`. */
    reflectionWindow: z.number().int().positive().default(15),
    reflectionThreshold: z.number().nonnegative().default(3),
    /** The filter `generate_insight` retrieves each question's memories with. */
    reflectionFilter: FilterStatementSchema.default('relevance > 0.5'),
    /** Importance of every memory when no LLM rates it (0.1–1.0 scale). */
    offlineImportance: z.number().min(0).max(1).default(0.5),
  })
  .strict();
export type GenerativeAgentsOptions = z.output<typeof GenerativeAgentsOptionsSchema>;

export function createGenerativeAgentsMethod(o: GenerativeAgentsOptions, c: MethodFactoryContext): Method {
  const { role } = resolveLlmMode(o, c);
  const weights = { recency: o.alphaRecency, importance: o.alphaImportance, relevance: o.alphaRelevance };
  const filter = o.filterStatement === undefined ? undefined : parseFilterStatement(o.filterStatement);
  const test = filter?.ok ? filter.test : undefined;
  const accesses = new AccessLog();
  const streamFor = perHaystack((index, ctx) =>
    buildMemoryStream(index, ctx, {
      role,
      weights,
      decayFactor: o.decayFactor,
      reflect: o.reflect,
      reflectionWindow: o.reflectionWindow,
      reflectionThreshold: o.reflectionThreshold,
      reflectionFilter: o.reflectionFilter,
      offlineImportance: o.offlineImportance,
      k: c.k,
    }),
  );
  return {
    capabilities: seedCapabilities(role),
    async memorise(index, ctx) {
      await streamFor(index, ctx);
    },
    async run(query, index, ctx) {
      const stream = await streamFor(index, ctx);
      const memories = stream.memories;
      if (memories.length === 0) return { retrieval: { units: [], noMemory: false, context: NO_MEMORY_LINE } };
      const key = haystackKey(index);
      const now = Date.parse(query.askedAt);
      const earlier = accesses.before(key, query.askedAt);
      const [qv] = await index.embedder.embed([query.text]);
      const lastAccess = memories.map((m) => Math.max(m.lastAccessMs, earlier.lastMs(m.id) ?? -Infinity));
      const rows = scoreRows(
        relativeRecency(lastAccess, now, o.decayFactor),
        memories.map((m) => m.importance),
        memories.map((m) => dot(qv!, m.vector)),
        weights,
      );
      const picked = rankRows(rows, c.k, test).map((i) => ({ m: memories[i]!, row: rows[i]! }));
      accesses.record(
        key,
        query.id,
        query.askedAt,
        picked.map((p) => p.m.id),
      );
      const units = expandToUnits(
        picked.map((p) => ({ score: p.row.score, unitIds: p.m.unitIds })),
        index,
        c.k,
      );
      const context =
        picked.length === 0
          ? NO_MEMORY_LINE
          : picked.map((p, i) => `(${i + 1}) ${renderMemory(p.m, index)}`).join('\n\n');
      return {
        retrieval: {
          units,
          noMemory: false,
          context,
          notes: {
            streamSize: memories.length,
            reflections: stream.stats.reflections,
            retrievedReflections: picked.filter((p) => p.m.kind === 'reflection').length,
            earlierQuestions: earlier.questions,
            memoriseMs: Math.round(stream.stats.memoriseMs),
            importanceFallbacks: stream.stats.importanceFallbacks,
            retrieved: picked.map((p) => ({
              id: p.m.id,
              score: round(p.row.score),
              recency: round(p.row.recency),
              importance: p.row.importance,
              relevance: round(p.row.relevance),
            })),
          },
        },
      };
    },
  };
}

function renderMemory(m: StreamMemory, index: Parameters<Method['run']>[1]): string {
  if (m.kind === 'observation') {
    const unit = index.unit(m.unitIds[0]!);
    if (unit) return renderUnit(unit);
  }
  return `[${formatDate(new Date(m.createdMs).toISOString())}] [reflection] ${m.description}`;
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export const generativeAgentsEntry = defineMethod({
  name: 'generative-agents',
  description:
    'Generative Agents memory stream (Park et al. 2023, as the source design specifies it): recency·importance·relevance with min-max, hourly decay, LLM importance and reflections',
  optionsSchema: GenerativeAgentsOptionsSchema,
  examples: [
    { label: 'defaults', options: {} },
    { label: 'filter statement', options: { filterStatement: 'relevance > 0.2 and score >= 0' } },
  ],
  create: (options, c) => createGenerativeAgentsMethod(options, c),
});
