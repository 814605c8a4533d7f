/**
 * `a-mem`: A-MEM, agentic memory (Xu et al., 2025; official code agiresearch/A-mem@ceffb860f0712bbae97b184d440df62bc910ca8d,
 * agentic_memory/memory_system.py). Memorising (once per haystack, notes.ts): one note per memory unit with LLM
 * keywords, context and tags; links and neighbour evolution decided by the LLM over the 5 nearest earlier notes.
 * Retrieval: the question's cosine against every note embedded as content + keywords + tags + context (the paper's
 * note embedding), top notes best first, each followed by its linked notes as `find_related_memories_raw` lists
 * them, cut to the budget k. A note keeps its unit's id, so recall@K is computed on source units; a linked note
 * carries its parent hit's score (the list stays non-increasing).
 *
 * Offline (`mode: offline`, or no `strategy` role): text-analysis keywords/tags (embedded with the content as in LLM
 * mode), links from nearest neighbours above `linkThreshold`, no evolution — marked `degraded: offline`. See
 * README.md for every deviation.
 */
import { z } from 'zod';
import type { Method, MethodFactoryContext } from '../../src/core/interfaces.ts';
import { defineMethod } from '../../src/core/method-entry.ts';
import { rankedRetrieval } from '../../src/core/render.ts';
import type { ScoredUnit } from '../../src/core/types.ts';
import { perHaystack } from '../../src/index/per-haystack.ts';
import { dot } from '../../src/index/vectors.ts';
import { LlmModeOptionsShape, rankByScore, resolveLlmMode } from '../llm-mode.ts';
import { buildNotes, noteText, type Notes } from './notes.ts';

export const AMemOptionsSchema = z
  .object({
    ...LlmModeOptionsShape,
    /** Nearest notes the evolution step sees (`find_related_memories(note.content, k=5)`). */
    neighbours: z.number().int().positive().default(5),
    /** Offline links: cosine of an earlier neighbour at or above this. No source default (the source links by LLM). */
    linkThreshold: z.number().min(-1).max(1).default(0.85),
    /** Add linked notes after each hit (`find_related_memories_raw`); false = plain top-k notes (`search`). */
    followLinks: z.boolean().default(true),
  })
  .strict();
export type AMemOptions = z.output<typeof AMemOptionsSchema>;

interface Memory extends Notes {
  /** Retrieval vectors: the note texts embedded. */
  vectors: readonly Float32Array[];
}

/** Hits in score order, each followed by its not-yet-listed links, cut to k; links carry the hit's score. */
export function withLinks(
  hits: readonly { unit: number; score: number }[],
  links: (unit: number) => readonly number[],
  k: number,
  follow: boolean,
): { unit: number; score: number; linked: boolean }[] {
  const out: { unit: number; score: number; linked: boolean }[] = [];
  const seen = new Set<number>();
  for (const h of hits) {
    if (out.length >= k) break;
    if (seen.has(h.unit)) continue;
    seen.add(h.unit);
    out.push({ ...h, linked: false });
    if (!follow) continue;
    for (const l of links(h.unit)) {
      if (out.length >= k) break;
      if (seen.has(l)) continue;
      seen.add(l);
      out.push({ unit: l, score: h.score, linked: true });
    }
  }
  return out;
}

export function createAMem(o: AMemOptions, context: MethodFactoryContext): Method {
  const where = `method ${context.id}`;
  const { role } = resolveLlmMode(o, context);
  const memory = perHaystack(async (index, ctx): Promise<Memory> => {
    const notes = await buildNotes(index, ctx, {
      role,
      neighbours: o.neighbours,
      linkThreshold: o.linkThreshold,
      where,
    });
    // Both modes embed the note text (content, keywords, tags, and the context when there is one).
    const vectors = await index.embedder.embed(notes.notes.map(noteText));
    return { ...notes, vectors };
  });

  return {
    capabilities: { output: 'units', memorises: true, ...(role ? { llmRoles: [role] } : { degraded: 'offline' }) },
    // A-MEM builds its notes (and links them) as memories are added (agiresearch/A-mem, memory_system.py add_note).
    async memorise(index, ctx) {
      if (index.units.length > 0) await memory(index, ctx);
    },
    async run(query, index, ctx) {
      if (index.units.length === 0) return { retrieval: rankedRetrieval([]) };
      const t0 = performance.now();
      const mem = await memory(index, ctx);
      // Time spent memorising (or waiting for it): the first question of a haystack carries it, later ones ~0.
      const memoriseMs = performance.now() - t0;
      const [q] = await index.embedder.embed([query.text]);
      const scores = mem.vectors.map((v) => dot(v, q!));
      const hits = rankByScore(scores)
        .slice(0, context.k)
        .map((unit) => ({ unit, score: scores[unit]! }));
      const listed = withLinks(hits, (u) => mem.notes[u]!.links, context.k, o.followLinks);
      const units: ScoredUnit[] = listed.map((x) => ({ unit: index.units[x.unit]!, score: x.score }));
      const notes = {
        linked: listed.filter((x) => x.linked).length,
        evolutions: mem.evolutions,
        fallbacks: mem.fallbacks,
        memoriseMs,
      };
      return { retrieval: { ...rankedRetrieval(units), notes } };
    },
  };
}

export const aMemEntry = defineMethod({
  name: 'a-mem',
  description:
    'A-MEM agentic memory: LLM notes (keywords, context, tags), links and evolution; top notes plus linked notes within k',
  optionsSchema: AMemOptionsSchema,
  create: (options, context) => createAMem(options, context),
});
