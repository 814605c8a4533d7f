/**
 * Strategy 2, temporal reasoning (plan §2.3 策略 2): time is the first priority.
 * 1. Resolve the question's time expression against its date (time-window.ts). With a window (Path A): keep the
 *    units whose day falls in it and rank them semantically.
 * 2. Otherwise, when the question compares events (Path B: "did I X before Y?"), split the events (LLM or the rules
 *    in events.ts) and take each event's best semantic match, with a timeline line saying which came first.
 * 3. Otherwise plain semantic retrieval.
 * The reader sees every unit prefixed with its date, in chronological order (the plan's 按时间正序).
 *
 * Rankings (the question's, within a window, and each event's) are the entity-focused first stage of factual.ts
 * (`baseRanking: entity`, default; `semantic` = the bare cosine): with flat SIF cosines the bare cosine matched
 * "move to Hangzhou" to a Hangzhou restaurant rather than "I moved to Xihu District in Hangzhou".
 * When events are compared, a closing line names the earliest event by its memory's date, so the reader answers
 * "which first" from the dates, not from the order of the list.
 *
 * Budget: the plan returns K results of the window, or one per event. The harness gives every method the same
 * budget k, so with `padToK` (default true) the rest of the list is filled by the question's ranking, ranked
 * after the window / event matches; `padToK: false` returns only what the plan's path finds. `units` stays best
 * first (window or event matches first); scores are the ranking's, made non-increasing with a running minimum
 * (render.ts) because the tiers, not the score, decide the order.
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { Query, Retrieval, RetrievalNotes, ScoredUnit } from '../core/types.ts';
import { splitEvents } from './events.ts';
import { baseRanked, BaseRankingSchema } from './factual.ts';
import { askJson, strategyClient } from './llm-step.ts';
import { dayOf, monotoneScores, renderContext } from './render.ts';
import { memoriseUnitKeys } from './text.ts';
import type { Strategy } from '../core/interfaces.ts';
import { findTimeWindow, inWindow, type TimeWindow } from './time-window.ts';

export const TemporalOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** Fill the list up to k with the query's semantic ranking after the window / event matches. */
    padToK: z.boolean().default(true),
    /** Candidates searched per event (plan: top_k=3, of which the best is kept). */
    perEventCandidates: z.number().int().positive().default(3),
    /** First-stage ranking: entity-reranked semantic candidates (default) or the bare cosine. */
    baseRanking: BaseRankingSchema.default('entity'),
  })
  .strict();
export type TemporalOptions = z.output<typeof TemporalOptionsSchema>;

const EventsSchema = z.object({ events: z.array(z.string()) });

export function eventPrompt(question: string): string {
  return (
    'If the question below compares the order or timing of two or more events (e.g. "did I X before Y?", ' +
    '"which happened first, X or Y?", "how many days between X and Y?"), list those events as short phrases. ' +
    'Otherwise return an empty list.\n\n' +
    `Question: ${question}\n\nReturn JSON: {"events": ["...", "..."]}`
  );
}

async function findEvents(
  query: Query,
  mode: 'llm' | 'offline',
  ctx: Ctx,
): Promise<{ events: string[]; fallback?: string }> {
  if (mode === 'offline') return { events: splitEvents(query.text) };
  const reply = await askJson(
    strategyClient(ctx, 'temporal'),
    ctx,
    'strategy.temporal.events',
    eventPrompt(query.text),
    EventsSchema,
  );
  if (!reply.ok) return { events: splitEvents(query.text), fallback: `unparsable reply: ${reply.reply}` };
  return { events: reply.value.events.map((e) => e.trim()).filter((e) => e.length > 0) };
}

export function createTemporal(options: TemporalOptions): Strategy {
  return {
    name: 'temporal',
    mode: options.mode,
    memorise: (index) => memoriseUnitKeys(index.units),
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      // The question's ranking of every unit (the window path filters it; padding continues it).
      const ranking = await baseRanked(options.baseRanking, query.text, index, index.units.length);
      const window: TimeWindow | undefined = findTimeWindow(query.text, query.askedAt);
      let first: ScoredUnit[] = [];
      let path: 'window' | 'events' | 'semantic' = 'semantic';
      const notes: RetrievalNotes = {
        strategy: 'temporal',
        contextOrder: 'chronological',
        baseRanking: options.baseRanking,
      };
      const trailer: string[] = [];

      if (window) {
        const inside = ranking.filter((r) => inWindow(r.unit.at, window));
        notes.window = { ...window, unitsInWindow: inside.length };
        if (inside.length > 0) {
          path = 'window';
          first = inside.slice(0, k);
        }
      }
      if (path === 'semantic' && !window) {
        const { events, fallback } = await findEvents(query, options.mode, ctx);
        if (fallback) notes.llmFallback = fallback;
        if (events.length >= 2) {
          path = 'events';
          const matches: { event: string; unitId: string; day: string }[] = [];
          for (const event of events) {
            const best = (await baseRanked(options.baseRanking, event, index, options.perEventCandidates))[0];
            if (!best) continue;
            matches.push({ event, unitId: best.unit.id, day: dayOf(best.unit.at) });
            if (!first.some((f) => f.unit.id === best.unit.id)) first.push(best);
          }
          notes.events = matches;
          const ordered = [...matches].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
          trailer.push('Timeline of the events asked about (earliest first):');
          for (const m of ordered) trailer.push(`- [${m.day}] ${m.event}`);
          const [earliest, second] = ordered;
          if (earliest && second) {
            trailer.push(
              earliest.day === second.day
                ? `"${earliest.event}" and "${second.event}" are dated the same day (${earliest.day}).`
                : `Earliest: "${earliest.event}" (${earliest.day}), before "${second.event}" (${second.day}).`,
            );
          }
        } else {
          notes.events = events;
        }
      }
      notes.path = path;
      if (trailer.length > 0) notes.trailer = trailer;

      const firstIds = new Set(first.map((f) => f.unit.id));
      const rest = path === 'semantic' || options.padToK ? ranking.filter((r) => !firstIds.has(r.unit.id)) : [];
      const ranked: ScoredUnit[] = monotoneScores([...first, ...rest].slice(0, k));
      return { units: ranked, noMemory: false, context: renderContext(ranked, 'chronological', { trailer }), notes };
    },
  };
}
