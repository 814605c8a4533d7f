/**
 * Strategy 4, multi-hop reasoning (plan §2.3 策略 4): decompose the question into sub-questions (LLM, or the rules of
 * decompose.ts offline: aggregation questions → the question, its items, each content word; conjunctions → clauses),
 * retrieve per step with the earlier findings appended (the plan's
 * `f"{sub_q}\n\n已知信息：{intermediate_results}"`), extract an intermediate answer per step (LLM, or offline the
 * best-matching sentence of the step's top units), and return the memories plus the intermediate reasoning. At most
 * `maxHops` steps (plan: max_hops=3).
 *
 * Budget: every step retrieves k candidates (the entity-ranked first stage of factual.ts; `baseRanking: semantic` =
 * the bare cosine) and the lists are merged by maximal marginal relevance (mmr.ts) over each unit's best
 * per-step relevance (min-max normalised per step, so steps on different scales mix), so the k returned memories cover
 * several sessions rather than each step getting a slice of k. `merge: best-score` restores the previous merge
 * (sorted by best cosine).
 *
 * For aggregation questions the reader also gets the collected evidence, dated and in time order, with how many
 * memories and sessions it spans ("passes the aggregation to the reader"; the counting itself is the reader's).
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { Query, Retrieval, ScoredUnit } from '../core/types.ts';
import { decomposeOffline, isAggregation } from './decompose.ts';
import { baseRanked, BaseRankingSchema } from './factual.ts';
import { askJson, askText, strategyClient } from './llm-step.ts';
import { mmrOrder } from './mmr.ts';
import { dayOf, monotoneScores, renderContext } from './render.ts';
import type { Strategy } from '../core/interfaces.ts';
import { countOverlap, extractEntities, sentences, textKeys } from './text.ts';

export { decomposeOffline, isAggregation } from './decompose.ts';

export const MultiHopOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** Plan: max_hops=3. */
    maxHops: z.number().int().min(1).default(3),
    /** Units each step's intermediate answer is read from. */
    evidencePerHop: z.number().int().positive().default(3),
    baseRanking: BaseRankingSchema.default('entity'),
    /** `mmr`: maximal marginal relevance over the steps' lists (default); `best-score`: sorted by best score. */
    merge: z.enum(['mmr', 'best-score']).default('mmr'),
    /** MMR trade-off λ (relevance weight). */
    mmrLambda: z.number().min(0).max(1).default(0.7),
  })
  .strict();
export type MultiHopOptions = z.output<typeof MultiHopOptionsSchema>;

const SubQuestionsSchema = z.object({ subQuestions: z.array(z.string()) });

export function decomposePrompt(question: string): string {
  return (
    'Break the question below into 2-3 simple sub-questions, in the order they should be answered. Each ' +
    'sub-question must be answerable by searching the memory of past conversations; later sub-questions may use ' +
    'the answers of earlier ones.\n\n' +
    'Example: "What hobbies do Wang and I have in common?" -> {"subQuestions": ["What are my hobbies?", "What are Wang\'s hobbies?"]}\n\n' +
    `Question: ${question}\n\nReturn JSON: {"subQuestions": ["...", "..."]}`
  );
}

export function intermediatePrompt(subQuestion: string, memories: readonly ScoredUnit[]): string {
  const lines = memories.map((m) => `[${dayOf(m.unit.at)}] ${m.unit.text}`).join('\n');
  return (
    `Answer the question briefly using only the memories below. If they do not contain the answer, reply "unknown".\n\n` +
    `Memories:\n${lines}\n\nQuestion: ${subQuestion}\nAnswer:`
  );
}

/** Offline intermediate answer: the sentence of the evidence with most sub-question keywords (ties: earliest). */
export function extractiveAnswer(subQuestion: string, memories: readonly ScoredUnit[]): string {
  const entities = extractEntities(subQuestion);
  let best = '';
  let bestOverlap = 0;
  for (const m of memories) {
    for (const s of sentences(m.unit.text)) {
      const o = countOverlap(entities, textKeys(s));
      if (o > bestOverlap) {
        bestOverlap = o;
        best = `[${dayOf(m.unit.at)}] ${s.length > 300 ? `${s.slice(0, 300)}…` : s}`;
      }
    }
  }
  return bestOverlap > 0 ? best : 'unknown';
}

/** Per-step min-max normalised relevance, so steps whose scores live on different scales mix fairly. */
function normalised(found: readonly ScoredUnit[]): number[] {
  const scores = found.map((f) => f.score);
  const hi = Math.max(...scores);
  const lo = Math.min(...scores);
  return scores.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 1));
}

/** The dated evidence list for aggregation questions (see header). */
function aggregationLines(units: readonly ScoredUnit[], question: string): string[] {
  const entities = extractEntities(question);
  const hits = units
    .map((u) => ({ u, line: extractiveAnswer(question, [u]) }))
    .filter((h) => h.line !== 'unknown' && countOverlap(entities, textKeys(h.u.unit.text)) > 0)
    .sort((a, b) => (a.u.unit.at < b.u.unit.at ? -1 : a.u.unit.at > b.u.unit.at ? 1 : 0));
  if (hits.length === 0) return [];
  const sessions = new Set(hits.map((h) => h.u.unit.sessionId)).size;
  return [`Collected for the aggregation: ${hits.length} memories in ${sessions} sessions, oldest first:`, ...hits.map((h) => `- ${h.line}`)];
}

export function createMultiHop(options: MultiHopOptions): Strategy {
  return {
    name: 'multi-hop',
    mode: options.mode,
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      const notes: Record<string, unknown> = { strategy: 'multi-hop', contextOrder: 'rank' };
      const offline = decomposeOffline(query.text, options.maxHops);
      let steps = offline.steps;
      notes.decomposition = offline.kind;
      if (options.mode === 'llm') {
        const reply = await askJson(strategyClient(ctx, 'multi-hop'), ctx, 'strategy.multi-hop.decompose', decomposePrompt(query.text), SubQuestionsSchema);
        const subs = reply.ok ? reply.value.subQuestions.map((s) => s.trim()).filter(Boolean) : [];
        if (!reply.ok) notes.llmFallback = `unparsable reply: ${reply.reply}`;
        if (subs.length > 0) {
          steps = subs.slice(0, options.maxHops);
          notes.decomposition = 'llm';
        }
      }

      const best = new Map<string, { unit: ScoredUnit['unit']; score: number; relevance: number; firstSeen: number }>();
      const hops: { subQuestion: string; searchText: string; found: string[]; answer: string }[] = [];
      let seen = 0;
      for (const [i, sub] of steps.entries()) {
        const known = hops.map((h) => h.answer).filter((a) => a !== 'unknown');
        const searchText = i === 0 || known.length === 0 ? sub : `${sub}\n\nKnown: ${known.join(' | ')}`;
        const found = await baseRanked(options.baseRanking, searchText, index, k);
        const rel = normalised(found);
        found.forEach((f, j) => {
          const prev = best.get(f.unit.id);
          if (!prev) best.set(f.unit.id, { unit: f.unit, score: f.score, relevance: rel[j]!, firstSeen: seen++ });
          else {
            prev.score = Math.max(prev.score, f.score);
            prev.relevance = Math.max(prev.relevance, rel[j]!);
          }
        });
        const evidence = found.slice(0, options.evidencePerHop);
        const answer =
          options.mode === 'llm'
            ? (await askText(strategyClient(ctx, 'multi-hop'), ctx, 'strategy.multi-hop.answer', intermediatePrompt(sub, evidence))) || 'unknown'
            : extractiveAnswer(sub, evidence);
        hops.push({ subQuestion: sub, searchText, found: found.map((f) => f.unit.id), answer });
      }
      const pool = [...best.values()].sort((a, b) => b.relevance - a.relevance || b.score - a.score || a.firstSeen - b.firstSeen);
      let chosen: typeof pool;
      if (options.merge === 'mmr') {
        const vectors = await index.vectors();
        const position = new Map(index.units.map((u, i) => [u.id, i]));
        const items = pool.map((p) => ({ sessionId: p.unit.sessionId, relevance: p.relevance, vector: vectors[position.get(p.unit.id) ?? -1] ?? new Float32Array(index.embedder.dim) }));
        chosen = mmrOrder(items, k, options.mmrLambda, index.spec.granularity !== 'session').map((i) => pool[i]!);
      } else {
        chosen = [...pool].sort((a, b) => b.score - a.score || a.firstSeen - b.firstSeen).slice(0, k);
      }
      const units = monotoneScores(chosen.map(({ unit, relevance, score }) => ({ unit, score: options.merge === 'mmr' ? relevance : score })));
      const trailer = ['Intermediate reasoning:', ...hops.map((h, i) => `${i + 1}. ${h.subQuestion} → ${h.answer}`)];
      if (isAggregation(query.text)) trailer.push(...aggregationLines(units, query.text));
      notes.hops = hops.map(({ subQuestion, answer, found }) => ({ subQuestion, answer, found: found.length }));
      notes.merge = options.merge;
      notes.trailer = trailer;
      return { units, noMemory: false, context: renderContext(units, 'rank', { trailer }), notes };
    },
  };
}
