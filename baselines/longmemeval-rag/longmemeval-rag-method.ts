/**
 * `longmemeval-rag`: the LongMemEval paper's memory framework (Wu et al., 2025, §5; official code
 * xiaowu0162/LongMemEval@9e0b455f4ef0e2ab8f2e582289761153549043fc, src/retrieval/run_retrieval.py,
 * src/index_expansion/, src/generation/). Values are the index's memory units (session, round or turn — the
 * experiment's `index.granularity`); keys are the values expanded with LLM summaries, keyphrases or user facts in the
 * official join modes (keys.ts); the question is matched against keys with BM25, the experiment's embedder, or both
 * fused (min-max, equal weights); a value ranks at its best key. With `timeAware`, a time range inferred from the
 * question (the official prompt; offline: the project's rule-based time window) moves values of sessions with an
 * event in range to the front (time-filter.ts). Reading with chain-of-note is the QA layer's `chain-of-note` reader.
 *
 * `preset: paper` is the paper's recommended setting: round values (the index must be `granularity: round`),
 * user-fact key expansion merged into the keys, time-aware query expansion; pair it with the chain-of-note reader.
 * Offline (no `strategy` role, or `mode: offline`) there is no key expansion and no LLM event dates — the method is
 * then plain retrieval with a rule-based time filter, and is marked `degraded: offline`. See README.md.
 */
import { z } from 'zod';
import { InputError } from '../../src/core/errors.ts';
import type { Ctx, MemoryIndex, Method, MethodFactoryContext } from '../../src/core/interfaces.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { formatDate, rankedRetrieval } from '../../src/core/render.ts';
import type { Query, RetrievalNotes, ScoredUnit } from '../../src/core/types.ts';
import { perHaystack } from '../../src/index/per-haystack.ts';
import { findTimeWindow } from '../../src/strategies/time-window.ts';
import { chatText, LlmModeOptionsShape, minMax, rankByScore, resolveLlmMode } from '../llm-mode.ts';
import { bestPerUnit } from './keys.ts';
import { memorise, type Memory } from './memorise.ts';
import { parseTimeRange, timeRangePrompt } from './prompts.ts';
import { inRangeFirst, sessionsInRange } from './time-filter.ts';
import { dot } from '../../src/index/vectors.ts';

export const LongMemEvalRagOptionsSchema = z
  .object({
    ...LlmModeOptionsShape,
    /** `paper`: round values, user-fact expansion (merge), time-aware expansion — overrides the three below. */
    preset: z.enum(['none', 'paper']).default('none'),
    /** Key expansion (official `--index_expansion_method`, session-/turn- prefix from the index granularity). */
    expansion: z.enum(['none', 'summary', 'keyphrase', 'userfact']).default('userfact'),
    /** Official `--index_expansion_result_join_mode` (merge | separate | replace). */
    joinMode: z.enum(['merge', 'separate', 'replace']).default('merge'),
    /** The official `split-*` join modes: one key per fact / keyphrase / summary sentence. */
    split: z.boolean().default(false),
    /** Time-aware query expansion (temp_query_search_pruning.py). */
    timeAware: z.boolean().default(true),
    /** Official retrievers: flat-bm25, a dense retriever (here: the experiment's embedder), or both fused. */
    retriever: z.enum(['bm25', 'embedding', 'fused']).default('embedding'),
  })
  .strict();
export type LongMemEvalRagOptions = z.output<typeof LongMemEvalRagOptionsSchema>;

export function createLongMemEvalRag(o: LongMemEvalRagOptions, context: MethodFactoryContext): Method {
  const where = `method ${context.id}`;
  const paper = o.preset === 'paper';
  if (paper && context.index.granularity !== 'round') {
    throw new InputError(
      `preset "paper" uses round values: set index.granularity: round (got ${context.index.granularity})`,
      where,
    );
  }
  const expansion = paper ? 'userfact' : o.expansion;
  const joinMode = paper ? 'merge' : o.joinMode;
  const timeAware = paper ? true : o.timeAware;
  const { role } = resolveLlmMode(o, context);
  const settings = { role, expansion, joinMode, split: paper ? false : o.split, llmEvents: timeAware, where } as const;

  const memory = perHaystack((index, ctx) => memorise(index, ctx, settings));
  // Offline, key expansion and LLM event dates are gone: plain retrieval plus a rule-based time filter.
  const degraded = !role && (expansion !== 'none' || timeAware);

  return {
    capabilities: {
      output: 'units',
      memorises: true,
      ...(role ? { llmRoles: [role] } : {}),
      ...(degraded ? { degraded: 'offline' } : {}),
    },
    async memorise(index, ctx) {
      if (index.units.length > 0) await memory(index, ctx);
    },
    async run(query, index, ctx) {
      if (index.units.length === 0) return { retrieval: rankedRetrieval([]) };
      const t0 = performance.now();
      const mem = await memory(index, ctx);
      // Time spent memorising (or waiting for it): the first question of a haystack carries it, later ones ~0.
      const memoriseMs = performance.now() - t0;
      const scores = await keyScores(mem, index, query.text, o.retriever);
      const perUnit = mem.plain ? scores : bestPerUnit(mem.keys, scores, index.units.length);
      let order = rankByScore(perUnit);
      const notes: RetrievalNotes = {
        keys: mem.keys.length,
        expansion: role ? expansion : 'none',
        fallbacks: mem.fallbacks,
        memoriseMs,
      };
      let tier = new Float64Array(index.units.length);
      if (timeAware) {
        const range = await timeRange(query, ctx, role, where);
        notes.timeRange = range ?? null;
        if (range) {
          const inRange = sessionsInRange(mem.eventDays, range);
          const moved = inRangeFirst(order, (i) => index.units[i]!.sessionId, inRange);
          order = moved.ranked;
          notes.inRange = moved.moved;
          tier = Float64Array.from(index.units, (u) => (inRange.has(u.sessionId) ? 1 : 0));
        }
      }
      // Reported score: in-range tier + min-max normalised retrieval score, so scores fall along the ranking.
      const norm = minMax(perUnit.map((x) => (Number.isFinite(x) ? x : 0)));
      const units: ScoredUnit[] = order
        .slice(0, context.k)
        .map((i) => ({ unit: index.units[i]!, score: tier[i]! + norm[i]! }));
      return { retrieval: { ...rankedRetrieval(units), notes } };
    },
  };
}

/** Scores of every key (or unit, when keys are the unit texts) for the question. */
async function keyScores(
  mem: Memory,
  index: MemoryIndex,
  text: string,
  retriever: 'bm25' | 'embedding' | 'fused',
): Promise<Float64Array> {
  const bm25 = (): Float64Array => (mem.plain ? index.keywordScores(text) : mem.bm25!.scores(text));
  const dense = async (): Promise<Float64Array> => {
    if (mem.plain) return Float64Array.from(await index.semanticScores(text));
    const [q] = await index.embedder.embed([text]);
    return Float64Array.from(mem.keyVectors!, (v) => dot(q!, v));
  };
  if (retriever === 'bm25') return bm25();
  if (retriever === 'embedding') return dense();
  const a = minMax(bm25());
  const b = minMax(await dense());
  return a.map((x, i) => (x + b[i]!) / 2);
}

/** The question's time range: the official LLM prompt, or offline the rule-based window of src/strategies. */
async function timeRange(
  query: Query,
  ctx: Ctx,
  role: MethodFactoryContext['llmRoles'][number] | undefined,
  where: string,
): Promise<{ start: string; end: string } | undefined> {
  const day = query.askedAt.slice(0, 10);
  if (role) {
    const p = timeRangePrompt(formatDate(query.askedAt), query.text);
    return parseTimeRange(await chatText(ctx, role, 'query:time-range', p.messages, p.maxTokens, where), day);
  }
  const w = findTimeWindow(query.text, query.askedAt);
  return w ? { start: w.startDay, end: w.endDay } : undefined;
}

export const longMemEvalRagEntry = defineMethod({
  name: 'longmemeval-rag',
  description:
    "LongMemEval's memory framework: key expansion (summaries / keyphrases / user facts), time-aware query expansion, BM25 / dense / fused retrieval",
  optionsSchema: LongMemEvalRagOptionsSchema,
  examples: [
    { label: 'defaults', options: {} },
    {
      label: 'bm25 separate keyphrases',
      options: { retriever: 'bm25', expansion: 'keyphrase', joinMode: 'separate', split: true },
    },
    {
      label: 'fused summary replace',
      options: { retriever: 'fused', expansion: 'summary', joinMode: 'replace', timeAware: false },
    },
  ],
  create: (options, context) => createLongMemEvalRag(options, context),
});
