/**
 * Strategy 2, temporal reasoning (plan §2.3 策略 2): time is the first priority.
 * 1. Resolve the question's time expression against its date (time-window.ts). With a window (Path A): keep the
 *    units whose day falls in it and rank them semantically.
 * 2. Otherwise, when the question compares events (Path B: "did I X before Y?"), split the events (LLM or the rules
 *    in events.ts) and take each event's best semantic match, with a timeline line saying which came first.
 * 3. Otherwise plain semantic retrieval.
 * The reader sees every unit prefixed with its date, in chronological order (the plan's 按时间正序).
 *
 * Budget: the plan returns K results of the window, or one per event. The harness gives every method the same
 * budget k, so with `padToK` (default true) the rest of the list is filled by the query's semantic ranking, ranked
 * after the window / event matches; `padToK: false` returns only what the plan's path finds. `units` stays best
 * first (window or event matches first); scores are the query cosine, made non-increasing with a running minimum
 * (render.ts) because the tiers, not the cosine, decide the order.
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { Query, Retrieval, ScoredUnit } from '../core/types.ts';
import { rankIndices } from '../index/top-k.ts';
import { splitEvents } from './events.ts';
import { askJson, strategyClient } from './llm-step.ts';
import { dayOf, monotoneScores, renderContext } from './render.ts';
import type { Strategy } from '../core/interfaces.ts';
import { findTimeWindow, inWindow, type TimeWindow } from './time-window.ts';

export const TemporalOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** Fill the list up to k with the query's semantic ranking after the window / event matches. */
    padToK: z.boolean().default(true),
    /** Candidates searched per event (plan: top_k=3, of which the best is kept). */
    perEventCandidates: z.number().int().positive().default(3),
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

async function findEvents(query: Query, mode: 'llm' | 'offline', ctx: Ctx): Promise<{ events: string[]; fallback?: string }> {
  if (mode === 'offline') return { events: splitEvents(query.text) };
  const reply = await askJson(strategyClient(ctx, 'temporal'), ctx, 'strategy.temporal.events', eventPrompt(query.text), EventsSchema);
  if (!reply.ok) return { events: splitEvents(query.text), fallback: `unparsable reply: ${reply.reply}` };
  return { events: reply.value.events.map((e) => e.trim()).filter((e) => e.length > 0) };
}

function positionOf(units: MemoryIndex['units'], id: string): number {
  return units.findIndex((u) => u.id === id);
}

export function createTemporal(options: TemporalOptions): Strategy {
  return {
    name: 'temporal',
    mode: options.mode,
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      const units = index.units;
      const scores = await index.semanticScores(query.text);
      const window: TimeWindow | undefined = findTimeWindow(query.text, query.askedAt);
      let first: number[] = [];
      let path: 'window' | 'events' | 'semantic' = 'semantic';
      const notes: Record<string, unknown> = { strategy: 'temporal', contextOrder: 'chronological' };
      const trailer: string[] = [];

      if (window) {
        const inside = units.map((u, i) => (inWindow(u.at, window) ? i : -1)).filter((i) => i >= 0);
        notes.window = { ...window, unitsInWindow: inside.length };
        if (inside.length > 0) {
          path = 'window';
          const sub = inside.map((i) => scores[i]!);
          first = rankIndices(sub, k).map((j) => inside[j]!);
        }
      }
      if (path === 'semantic' && !window) {
        const { events, fallback } = await findEvents(query, options.mode, ctx);
        if (fallback) notes.llmFallback = fallback;
        if (events.length >= 2) {
          path = 'events';
          const matches: { event: string; unitId: string; day: string }[] = [];
          for (const event of events) {
            const best = (await index.semantic(event, options.perEventCandidates))[0];
            if (!best) continue;
            matches.push({ event, unitId: best.unit.id, day: dayOf(best.unit.at) });
            const i = positionOf(units, best.unit.id);
            if (i >= 0 && !first.includes(i)) first.push(i);
          }
          notes.events = matches;
          const ordered = [...matches].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
          trailer.push('Timeline of the events asked about (earliest first):');
          for (const m of ordered) trailer.push(`- [${m.day}] ${m.event}`);
        } else {
          notes.events = events;
        }
      }
      notes.path = path;
      if (trailer.length > 0) notes.trailer = trailer;

      const firstSet = new Set(first);
      const rest = path === 'semantic' || options.padToK ? rankIndices(scores, k + first.length).filter((i) => !firstSet.has(i)) : [];
      const order = [...first, ...rest].slice(0, k);
      const ranked: ScoredUnit[] = monotoneScores(order.map((i) => ({ unit: units[i]!, score: scores[i]! })));
      return { units: ranked, noMemory: false, context: renderContext(ranked, 'chronological', { trailer }), notes };
    },
  };
}
