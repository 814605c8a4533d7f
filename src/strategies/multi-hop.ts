/**
 * Strategy 4, multi-hop reasoning (plan §2.3 策略 4): decompose the question into sub-questions (LLM, or the rules
 * below offline), retrieve per step with the earlier findings appended (the plan's
 * `f"{sub_q}\n\n已知信息：{intermediate_results}"`), extract an intermediate answer per step (LLM, or offline the
 * best-matching sentence of the step's top units), deduplicate, and return the memories plus the intermediate
 * reasoning. At most `maxHops` steps (plan: max_hops=3).
 *
 * Offline decomposition rules: split the question at clause conjunctions (", and", " and ", ";", " as well as ",
 * 和/以及/还有) into parts that each keep ≥ 1 content word; if that yields < 2 parts, the steps are the question itself
 * and then its keywords alone (a second, entity-focused search that picks up memories the full question misses).
 *
 * Ranking: a unit found at several steps keeps its best cosine; the merged list is sorted by that score (best first).
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { Query, Retrieval, ScoredUnit } from '../core/types.ts';
import { askJson, askText, strategyClient } from './llm-step.ts';
import { dayOf, renderContext } from './render.ts';
import type { Strategy } from '../core/interfaces.ts';
import { countOverlap, extractEntities, sentences, textKeys } from './text.ts';

export const MultiHopOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** Plan: max_hops=3. */
    maxHops: z.number().int().min(1).default(3),
    /** Units each step's intermediate answer is read from. */
    evidencePerHop: z.number().int().positive().default(3),
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

export function decomposeOffline(question: string, maxHops: number): string[] {
  const parts = question
    .split(/,\s*and\s+|;\s*|\s+as well as\s+|\s+and\s+|和|以及|还有|；/u)
    .map((p) => p.trim())
    .filter((p) => extractEntities(p).length >= 1);
  const steps = parts.length >= 2 ? parts : [question, extractEntities(question).join(' ')].filter((s) => s.trim().length > 0);
  return [...new Set(steps)].slice(0, maxHops);
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

export function createMultiHop(options: MultiHopOptions): Strategy {
  return {
    name: 'multi-hop',
    mode: options.mode,
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      const notes: Record<string, unknown> = { strategy: 'multi-hop', contextOrder: 'rank' };
      let steps: string[];
      if (options.mode === 'llm') {
        const reply = await askJson(strategyClient(ctx, 'multi-hop'), ctx, 'strategy.multi-hop.decompose', decomposePrompt(query.text), SubQuestionsSchema);
        const subs = reply.ok ? reply.value.subQuestions.map((s) => s.trim()).filter(Boolean) : [];
        if (!reply.ok) notes.llmFallback = `unparsable reply: ${reply.reply}`;
        steps = subs.length > 0 ? subs.slice(0, options.maxHops) : decomposeOffline(query.text, options.maxHops);
      } else {
        steps = decomposeOffline(query.text, options.maxHops);
      }

      const best = new Map<string, { unit: ScoredUnit['unit']; score: number; firstSeen: number }>();
      const hops: { subQuestion: string; searchText: string; found: string[]; answer: string }[] = [];
      let seen = 0;
      for (const [i, sub] of steps.entries()) {
        const known = hops.map((h) => h.answer).filter((a) => a !== 'unknown');
        const searchText = i === 0 || known.length === 0 ? sub : `${sub}\n\nKnown: ${known.join(' | ')}`;
        const found = await index.semantic(searchText, k);
        for (const f of found) {
          const prev = best.get(f.unit.id);
          if (!prev) best.set(f.unit.id, { unit: f.unit, score: f.score, firstSeen: seen++ });
          else if (f.score > prev.score) prev.score = f.score;
        }
        const evidence = found.slice(0, options.evidencePerHop);
        const answer =
          options.mode === 'llm'
            ? (await askText(strategyClient(ctx, 'multi-hop'), ctx, 'strategy.multi-hop.answer', intermediatePrompt(sub, evidence))) || 'unknown'
            : extractiveAnswer(sub, evidence);
        hops.push({ subQuestion: sub, searchText, found: found.map((f) => f.unit.id), answer });
      }
      const units = [...best.values()]
        .sort((a, b) => b.score - a.score || a.firstSeen - b.firstSeen)
        .slice(0, k)
        .map(({ unit, score }) => ({ unit, score }));
      const trailer = ['Intermediate reasoning:', ...hops.map((h, i) => `${i + 1}. ${h.subQuestion} → ${h.answer}`)];
      notes.hops = hops.map(({ subQuestion, answer, found }) => ({ subQuestion, answer, found: found.length }));
      notes.trailer = trailer;
      return { units, noMemory: false, context: renderContext(units, 'rank', { trailer }), notes };
    },
  };
}
