/**
 * `rae`: the retrieval-augmented experience pipeline of its source design (baselines/rae/README.md; trace mode), adapted to conversations: the
 * "trace bank" is the haystack's memory units and a "task" is a session. Per question and round:
 *   ① query rewrite (LLM → `num_queries` text queries; the original question is kept as well);
 *   ② embedding search per query (the experiment's embedder), walking down the ranking until `retrieval_top_k`
 *      distinct sessions are found;
 *   ③ dedup by session (the spec's "by task_id"): a session counts once, at its best unit;
 *   ④ rerank (`enable_rerank`): a cross-encoder `/v1/rerank` endpoint when `rerankEndpoint` is set, else LLM listwise;
 *      offline: BM25 + cosine fusion; disabled: retrieval score order;
 *   ⑤ summary of the experience (LLM) → the reader's context; offline: the top units verbatim, with dates;
 *   ⑥ with `max_retrieval_rounds` ≥ 2, a sufficiency check (LLM YES/NO; offline: every entity of the question occurs
 *      in the top units) ends the loop or starts the next round (LLM: rewrite with the previous queries and summary;
 *      without the rewrite step or offline: a query of the question's entities still missing). Candidates accumulate
 *      across rounds.
 * Ranked units keep their source ids, so recall@K is computed on what the pipeline selected. See README.md.
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex, Method, MethodFactoryContext } from '../../src/core/interfaces.ts';
import type { LlmRole } from '../../src/core/llm.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { NO_MEMORY_LINE, renderUnits } from '../../src/core/render.ts';
import type { Query, RetrievalNotes, ScoredUnit } from '../../src/core/types.ts';
import { isYes } from '../../src/llm/yes-no.ts';
import { countOverlap, extractEntities, textKeys } from '../../src/strategies/text.ts';
import { chatText, LlmModeOptionsShape, rankByScore, resolveLlmMode } from '../llm-mode.ts';
import {
  parseQueries,
  parseRanking,
  rerankPrompt,
  rewritePrompt,
  summaryPrompt,
  sufficiencyPrompt,
} from './prompts.ts';
import { crossEncoderScores, fusionScores, RerankEndpointSchema } from './rerank.ts';

export const RaeOptionsSchema = z
  .object({
    ...LlmModeOptionsShape,
    /** Spec default true; off → candidates in retrieval-score order. */
    enable_rerank: z.boolean().default(true),
    /** Spec default true; off → the question itself is the only query. */
    enable_query_rewrite: z.boolean().default(true),
    /** Spec default 1 (single round); 2+ adds the sufficiency check between rounds. */
    max_retrieval_rounds: z.number().int().min(1).max(5).default(1),
    /** Sessions found per query (the spec's state mode uses 10 candidates; trace mode gives no number). */
    retrieval_top_k: z.number().int().positive().default(10),
    /** Queries asked of the rewrite step ("several"). */
    num_queries: z.number().int().min(1).max(8).default(3),
    /** A cross-encoder `/v1/rerank` endpoint; when set, it reranks instead of the LLM. */
    rerankEndpoint: RerankEndpointSchema.optional(),
    /** Summarise the experience with the LLM (seed ⑤); off → the top units verbatim even in LLM mode. */
    summary: z.boolean().default(true),
  })
  .strict();
export type RaeOptions = z.output<typeof RaeOptionsSchema>;

/** Best unit per session over one query's ranking, until `topK` sessions (seed ②+③). */
export function topSessions(
  scores: ArrayLike<number>,
  sessionOf: (unit: number) => string,
  topK: number,
): { unit: number; score: number }[] {
  const out: { unit: number; score: number }[] = [];
  const seen = new Set<string>();
  for (const unit of rankByScore(scores)) {
    const s = sessionOf(unit);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push({ unit, score: scores[unit]! });
    if (out.length >= topK) break;
  }
  return out;
}

/** Offline sufficiency: the question's entities not found in the top units (none missing = sufficient). */
export function missingEntities(question: string, texts: readonly string[]): string[] {
  const keys = textKeys(texts.join('\n'));
  return extractEntities(question).filter((e) => countOverlap([e], keys) === 0);
}

interface RunState {
  /** Session → its best candidate unit and retrieval score so far. */
  candidates: Map<string, { unit: number; score: number }>;
  queries: string[];
}

/** What the steps need of the method's settings: its options, its LLM role (none offline), its reranker. */
interface Rae {
  o: RaeOptions;
  role: LlmRole | undefined;
  endpoint: RaeOptions['rerankEndpoint'] | undefined;
  where: string;
}

async function rerank(
  r: Rae,
  query: Query,
  index: MemoryIndex,
  cands: { unit: number; score: number }[],
  ctx: Ctx,
  notes: RetrievalNotes,
): Promise<{ unit: number; score: number }[]> {
  if (!r.o.enable_rerank || cands.length === 0) return cands;
  const units = cands.map((c) => index.units[c.unit]!);
  if (r.endpoint) {
    const s = await crossEncoderScores(
      r.endpoint,
      query.text,
      units.map((u) => u.text),
      ctx,
      r.where,
    );
    return rankByScore(s).map((i) => ({ unit: cands[i]!.unit, score: s[i]! }));
  }
  if (r.role) {
    const order = parseRanking(
      await chatText(ctx, r.role, 'query:rerank', rerankPrompt(query.text, units), 300, r.where),
      cands.length,
    );
    if (order) return order.map((i, rank) => ({ unit: cands[i]!.unit, score: (cands.length - rank) / cands.length }));
    notes.fallbacks = Number(notes.fallbacks ?? 0) + 1;
    return cands;
  }
  const bm25 = index.keywordScores(query.text);
  const fused = fusionScores(
    cands.map((c) => bm25[c.unit]!),
    cands.map((c) => c.score),
  );
  return rankByScore(fused).map((i) => ({ unit: cands[i]!.unit, score: fused[i]! }));
}

async function queriesFor(
  r: Rae,
  round: number,
  query: Query,
  state: RunState,
  previous: { experience: string; missing: string[] },
  ctx: Ctx,
  notes: RetrievalNotes,
): Promise<string[]> {
  // Without the rewrite step, a later round searches for the question's entities the top units still lack.
  if (!r.o.enable_query_rewrite || !r.role)
    return round === 1 ? [query.text] : previous.missing.length > 0 ? [previous.missing.join(' ')] : [];
  const reply = await chatText(
    ctx,
    r.role,
    'query:rewrite',
    rewritePrompt(
      query.text,
      query.askedAt,
      r.o.num_queries,
      round > 1 ? { queries: state.queries, experience: previous.experience } : undefined,
    ),
    300,
    r.where,
  );
  const rewritten = parseQueries(reply, r.o.num_queries);
  if (!rewritten) notes.fallbacks = Number(notes.fallbacks ?? 0) + 1;
  const qs = round === 1 ? [query.text, ...(rewritten ?? [])] : (rewritten ?? []);
  return [...new Set(qs)];
}

async function experienceOf(r: Rae, query: Query, top: ScoredUnit[], ctx: Ctx): Promise<string> {
  const llm = r.role;
  if (top.length === 0) return NO_MEMORY_LINE;
  if (!llm || !r.o.summary) return renderUnits(top);
  const text = await chatText(
    ctx,
    llm,
    'query:summary',
    summaryPrompt(
      query.text,
      query.askedAt,
      top.map((t) => t.unit),
    ),
    500,
    r.where,
  );
  return `## Experience from Similar Conversations\n${text.trim()}`;
}

export function createRae(o: RaeOptions, context: MethodFactoryContext): Method {
  const where = `method ${context.id}`;
  const { role } = resolveLlmMode(o, context);
  const endpoint = o.enable_rerank ? o.rerankEndpoint : undefined;
  const r: Rae = { o, role, endpoint, where };
  return {
    capabilities: { output: 'units', ...(role ? { llmRoles: [role] } : { degraded: 'offline' }) },
    async run(query, index, ctx) {
      const notes: RetrievalNotes = { rounds: 0 };
      if (index.units.length === 0)
        return { retrieval: { units: [], noMemory: false, context: NO_MEMORY_LINE, notes } };
      const state: RunState = { candidates: new Map(), queries: [] };
      let top: ScoredUnit[] = [];
      let experience = NO_MEMORY_LINE;
      let missing: string[] = [];
      for (let round = 1; round <= o.max_retrieval_rounds; round++) {
        const queries = (await queriesFor(r, round, query, state, { experience, missing }, ctx, notes)).filter(
          (q) => !state.queries.includes(q),
        );
        if (round > 1 && queries.length === 0) break;
        notes.rounds = round;
        state.queries.push(...queries);
        for (const q of queries) {
          const scores = await index.semanticScores(q);
          for (const c of topSessions(scores, (u) => index.units[u]!.sessionId, o.retrieval_top_k)) {
            const s = index.units[c.unit]!.sessionId;
            const prev = state.candidates.get(s);
            if (!prev || c.score > prev.score) state.candidates.set(s, c);
          }
        }
        const cands = [...state.candidates.values()].sort((a, b) => b.score - a.score || a.unit - b.unit);
        const ranked = await rerank(r, query, index, cands, ctx, notes);
        top = ranked.slice(0, context.k).map((c) => ({ unit: index.units[c.unit]!, score: c.score }));
        experience = await experienceOf(r, query, top, ctx);
        if (round === o.max_retrieval_rounds) break;
        // ⑥ sufficiency check between rounds.
        missing = missingEntities(
          query.text,
          top.map((t) => t.unit.text),
        );
        if (role) {
          const reply = await chatText(
            ctx,
            role,
            'query:sufficiency',
            sufficiencyPrompt(query.text, experience),
            5,
            where,
          );
          if (isYes(reply)) break;
        } else if (missing.length === 0) break;
      }
      notes.queries = state.queries;
      return { retrieval: { units: top, noMemory: false, context: experience, notes } };
    },
  };
}

export const raeEntry = defineMethod({
  name: 'rae',
  description:
    'retrieval-augmented experience pipeline (its source design, trace mode): query rewrite, embedding search, dedup by session, rerank, summary, sufficiency rounds',
  optionsSchema: RaeOptionsSchema,
  examples: [
    { label: 'defaults', options: {} },
    { label: 'two rounds, no rewrite', options: { max_retrieval_rounds: 2, enable_query_rewrite: false } },
    { label: 'no rerank', options: { enable_rerank: false, max_retrieval_rounds: 3 } },
  ],
  create: (options, context) => createRae(options, context),
});
