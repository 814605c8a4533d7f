/**
 * What longmemeval-rag memorises once per haystack: the expanded keys of every value (LLM summaries, keyphrases or
 * user facts, joined per the official join modes — keys.ts), the keys' BM25 index and vectors, and each session's
 * event dates for the time-aware expansion. LLM calls are staged `index:<kind>` and `index:events`; they go through
 * the shared client, so a rerun is served from its cache.
 */
import type { Ctx, MemoryIndex } from '../../src/core/interfaces.ts';
import type { LlmRole } from '../../src/core/llm.ts';
import { formatDate } from '../../src/core/render.ts';
import { Bm25Index } from '../../src/index/bm25.ts';
import { chatText } from '../llm-mode.ts';
import { joinKeys, type JoinMode, type Key } from './keys.ts';
import {
  dialogueString,
  eventsPrompt,
  expansionPrompt,
  parseEventDates,
  parseExpansion,
  type ExpansionKind,
} from './prompts.ts';

export interface MemoriseSettings {
  role: LlmRole | undefined;
  expansion: ExpansionKind | 'none';
  joinMode: JoinMode;
  split: boolean;
  /** Extract dated events per session with the LLM (time-aware expansion in LLM mode). */
  llmEvents: boolean;
  where: string;
}

export interface Memory {
  /** Keys equal the unit texts (no expansion): the index's own BM25 and vectors are used. */
  plain: boolean;
  keys: Key[];
  bm25?: Bm25Index;
  keyVectors?: readonly Float32Array[];
  /** Session id → event days (`YYYY-MM-DD`). */
  eventDays: Map<string, string[]>;
  /** LLM replies that did not parse (treated as empty expansions / no events). */
  fallbacks: number;
}

export async function memorise(index: MemoryIndex, ctx: Ctx, s: MemoriseSettings): Promise<Memory> {
  const units = index.units;
  let fallbacks = 0;
  const eventDays = new Map<string, string[]>();
  for (const u of units) if (!eventDays.has(u.sessionId)) eventDays.set(u.sessionId, [u.at.slice(0, 10)]);

  const role = s.role;
  if (role && s.llmEvents) {
    // One call per session, over its units in index order (sessions are contiguous in the index).
    const bySession = new Map<string, (typeof units)[number][]>();
    for (const u of units) bySession.set(u.sessionId, [...(bySession.get(u.sessionId) ?? []), u]);
    // Independent calls: asked concurrently (the client's scheduler bounds them), applied in session order.
    const replies = await Promise.all(
      [...bySession.values()].map((members) => {
        const p = eventsPrompt(
          formatDate(members[0]!.at),
          dialogueString(members.map((u) => ({ role: u.speaker ?? u.role, text: u.text }))),
        );
        return chatText(ctx, role, 'index:events', p.messages, p.maxTokens, s.where);
      }),
    );
    [...bySession.keys()].forEach((sessionId, i) => {
      const days = parseEventDates(replies[i]!);
      if (days === undefined) fallbacks++;
      else if (days.length > 0) eventDays.set(sessionId, days);
      // An empty event list leaves the session date as its event date: a session always has its own date.
    });
  }

  if (!role || s.expansion === 'none')
    return { plain: true, keys: units.map((_, unit) => ({ text: units[unit]!.text, unit })), eventDays, fallbacks };

  const scope = index.spec.granularity === 'session' ? 'session' : 'round';
  const kind = s.expansion;
  const replies = await Promise.all(
    units.map((u) => {
      const p = expansionPrompt(kind, scope, dialogueString([{ role: u.speaker ?? u.role, text: u.text }]));
      return chatText(ctx, role, `index:${kind}`, p.messages, p.maxTokens, s.where);
    }),
  );
  const expansions = replies.map((reply) => {
    const items = parseExpansion(kind, reply, s.split);
    if (items === undefined) fallbacks++;
    return items;
  });
  const keys = joinKeys(
    units.map((u) => u.text),
    expansions,
    s.joinMode,
  );
  const texts = keys.map((k) => k.text);
  return {
    plain: false,
    keys,
    bm25: new Bm25Index(texts),
    keyVectors: await embedNonEmpty(index, texts),
    eventDays,
    fallbacks,
  };
}

/** Vectors of the key texts; an empty key (failed replace-mode expansion) gets a zero vector (cosine 0). */
async function embedNonEmpty(index: MemoryIndex, texts: readonly string[]): Promise<Float32Array[]> {
  const filled = texts.map((t, i) => ({ t, i })).filter(({ t }) => t.trim() !== '');
  const vectors = filled.length > 0 ? await index.embedder.embed(filled.map(({ t }) => t)) : [];
  const out: Float32Array[] = texts.map(() => new Float32Array(index.embedder.dim));
  filled.forEach(({ i }, j) => {
    out[i] = vectors[j]!;
  });
  return out;
}
