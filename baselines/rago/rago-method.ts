/**
 * `rago`: the agent-memory design for rago (its source design; liliang-cn/rago). Memorising (once per haystack, store.ts):
 * typed memories with importance per session. Answering (retrieval.ts): session-scoped and global halves (vector
 * search with min score 0.7, plus keyword search), merged, deduplicated, ranked by score, rendered in the spec's
 * `[i] [type] (score: …)` format; memories expand to their source units. Access counts and last access (the spec's
 * `IncrementAccess`) follow the earlier questions (derived-memories.ts AccessLog) and are reported in the notes; the
 * spec's ranking does not use them.
 *
 * The question's session scope (the spec's `sessionID`, the conversation the question is asked in): the most recent
 * session at or before the question's date — the conversation still going on when the question comes.
 *
 * Offline (no LLM role): one `context` memory per unit with importance 0.5; marked `degraded: offline`.
 */
import { z } from 'zod';
import type { Method, MethodFactoryContext } from '../../src/core/interfaces.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { formatDate, NO_MEMORY_LINE } from '../../src/core/render.ts';
import { haystackKey } from '../../src/index/per-haystack.ts';
import { perHaystack } from '../../src/index/per-haystack.ts';
import { AccessLog, expandToUnits, seedCapabilities } from '../derived-memories.ts';
import { dot } from '../../src/index/vectors.ts';
import { LlmModeOptionsShape, resolveLlmMode } from '../llm-mode.ts';
import { rankMemories } from './retrieval.ts';
import { formatMemories } from './prompts.ts';
import { buildStore, type RagoStore } from './store.ts';

export const RagoOptionsSchema = z
  .object({
    ...LlmModeOptionsShape,
    /** `MemoryConfig.MinScore`: floor of the global vector search. */
    minScore: z.number().min(-1).max(1).default(0.7),
    /** `GenerationOptions` of `StoreIfWorthwhile`. */
    temperature: z.number().min(0).max(2).default(0.3),
    maxTokens: z.number().int().positive().default(1000),
  })
  .strict();
export type RagoOptions = z.output<typeof RagoOptionsSchema>;

/** The latest session with memories at or before `askedAtMs`. */
export function scopeSession(store: Pick<RagoStore, 'sessions'>, askedAtMs: number): string | undefined {
  let scope: string | undefined;
  for (const s of store.sessions) if (s.atMs <= askedAtMs) scope = s.sessionId;
  return scope;
}

export function createRagoMethod(o: RagoOptions, c: MethodFactoryContext): Method {
  const { role } = resolveLlmMode(o, c);
  const accesses = new AccessLog();
  const storeFor = perHaystack((index, ctx) =>
    buildStore(index, ctx, { role, temperature: o.temperature, maxTokens: o.maxTokens }),
  );
  return {
    capabilities: seedCapabilities(role),
    async memorise(index, ctx) {
      await storeFor(index, ctx);
    },
    async run(query, index, ctx) {
      const store = await storeFor(index, ctx);
      if (store.memories.length === 0)
        return { retrieval: { units: [], noMemory: false, context: NO_MEMORY_LINE, notes: { memories: 0 } } };
      const key = haystackKey(index);
      const earlier = accesses.before(key, query.askedAt);
      const scope = scopeSession(store, Date.parse(query.askedAt));
      const [qv] = await index.embedder.embed([query.text]);
      const bm25 = store.keyword!.scores(query.text);
      const ranked = rankMemories(
        store.memories.map((m, i) => ({
          cosine: dot(qv!, m.vector),
          keyword: bm25[i]!,
          inScope: m.sessionId === scope,
        })),
        c.k,
        o.minScore,
      );
      const picked = ranked.map((r) => ({ ...r, m: store.memories[r.index]! }));
      accesses.record(
        key,
        query.id,
        query.askedAt,
        picked.map((p) => p.m.id),
      );
      const units = expandToUnits(
        picked.map((p) => ({ score: p.score, unitIds: p.m.unitIds })),
        index,
        c.k,
      );
      const context =
        picked.length === 0
          ? NO_MEMORY_LINE
          : formatMemories(
              picked.map((p) => ({
                type: p.m.type,
                score: p.score,
                content: p.m.content,
                date: formatDate(new Date(p.m.createdMs).toISOString()),
              })),
            );
      return {
        retrieval: {
          units,
          noMemory: false,
          context,
          notes: {
            memories: store.memories.length,
            scopeSession: scope ?? null,
            memoriseMs: Math.round(store.stats.memoriseMs),
            extractFailures: store.stats.extractFailures,
            earlierQuestions: earlier.questions,
            retrieved: picked.map((p) => ({
              id: p.m.id,
              type: p.m.type,
              importance: p.m.importance,
              score: Math.round(p.score * 1e4) / 1e4,
              via: p.via,
              accessCount: earlier.count(p.m.id),
            })),
          },
        },
      };
    },
  };
}

export const ragoEntry = defineMethod({
  name: 'rago',
  description:
    'rago agent memory (its source design): typed memories with importance, session-scoped + global vector search (min score 0.7) with keyword search, merged by score',
  optionsSchema: RagoOptionsSchema,
  create: (options, c) => createRagoMethod(options, c),
});
