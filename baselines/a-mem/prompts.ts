/**
 * A-MEM's two LLM prompts, verbatim from the official code (agiresearch/A-mem, commit
 * ceffb860f0712bbae97b184d440df62bc910ca8d, agentic_memory/memory_system.py): note construction
 * (`AgenticMemorySystem.analyze_content`: keywords, context, tags) and memory evolution (`_evolution_system_prompt`:
 * link to neighbours — "strengthen" — and update the neighbours' context and tags). The neighbour listing is
 * `find_related_memories`' format (`memory index:{i}\ttalk start time:…\tmemory content: …`), with Python's list
 * repr for keywords and tags. Replies are parsed leniently; a reply that does not parse gives the source's fallback
 * (`{"keywords": [], "context": "General", "tags": []}`, or no evolution).
 */
import { z } from 'zod';
import { readJson } from '../llm-mode.ts';

export interface NoteMeta {
  keywords: string[];
  context: string;
  tags: string[];
}

/** The note as the prompts show it. */
export interface NoteView extends NoteMeta {
  content: string;
  /** A-MEM's `YYYYMMDDHHMM`. */
  timestamp: string;
}

export function analyzePrompt(content: string): string {
  return `Generate a structured analysis of the following content by:
            1. Identifying the most salient keywords (focus on nouns, verbs, and key concepts)
            2. Extracting core themes and contextual elements
            3. Creating relevant categorical tags

            Format the response as a JSON object:
            {
                "keywords": [
                    // several specific, distinct keywords that capture key concepts and terminology
                    // Order from most to least important
                    // Don't include keywords that are the name of the speaker or time
                    // At least three keywords, but don't be too redundant.
                ],
                "context": 
                    // one sentence summarizing:
                    // - Main topic/domain
                    // - Key arguments/points
                    // - Intended audience/purpose
                ,
                "tags": [
                    // several broad categories/themes for classification
                    // Include domain, format, and type tags
                    // At least three tags, but don't be too redundant.
                ]
            }

            Content for analysis:
            ${content}`;
}

const StringList = z
  .array(z.unknown())
  .transform((xs) => xs.filter((x): x is string => typeof x === 'string' && x.trim() !== ''));
const AnalysisSchema = z.object({
  keywords: StringList.default([]),
  context: z.string().default('General'),
  tags: StringList.default([]),
});

export function parseAnalysis(reply: string): NoteMeta | undefined {
  const v = readJson(reply, AnalysisSchema);
  return v ? { keywords: v.keywords, context: v.context.trim() || 'General', tags: v.tags } : undefined;
}

/** Python's `str(list_of_str)`: `['a', 'b']`. */
export function pyList(xs: readonly string[]): string {
  return `[${xs.map((x) => `'${x.replace(/\\/gu, '\\\\').replace(/'/gu, "\\'")}'`).join(', ')}]`;
}

/** `find_related_memories`' neighbour listing. */
export function neighboursText(neighbours: readonly NoteView[]): string {
  return neighbours
    .map(
      (n, i) =>
        `memory index:${i}\ttalk start time:${n.timestamp}\tmemory content: ${n.content}\tmemory context: ${n.context}\tmemory keywords: ${pyList(n.keywords)}\tmemory tags: ${pyList(n.tags)}\n`,
    )
    .join('');
}

export function evolutionPrompt(note: NoteView, neighbours: readonly NoteView[]): string {
  return `
                                You are an AI memory evolution agent responsible for managing and evolving a knowledge base.
                                Analyze the the new memory note according to keywords and context, also with their several nearest neighbors memory.
                                Make decisions about its evolution.  

                                The new memory context:
                                ${note.context}
                                content: ${note.content}
                                keywords: ${pyList(note.keywords)}

                                The nearest neighbors memories:
                                ${neighboursText(neighbours)}

                                Based on this information, determine:
                                1. Should this memory be evolved? Consider its relationships with other memories.
                                2. What specific actions should be taken (strengthen, update_neighbor)?
                                   2.1 If choose to strengthen the connection, which memory should it be connected to? Can you give the updated tags of this memory?
                                   2.2 If choose to update_neighbor, you can update the context and tags of these memories based on the understanding of these memories. If the context and the tags are not updated, the new context and tags should be the same as the original ones. Generate the new context and tags in the sequential order of the input neighbors.
                                Tags should be determined by the content of these characteristic of these memories, which can be used to retrieve them later and categorize them.
                                Note that the length of new_tags_neighborhood must equal the number of input neighbors, and the length of new_context_neighborhood must equal the number of input neighbors.
                                The number of neighbors is ${neighbours.length}.
                                Return your decision in JSON format with the following structure:
                                {
                                    "should_evolve": True or False,
                                    "actions": ["strengthen", "update_neighbor"],
                                    "suggested_connections": ["neighbor_memory_ids"],
                                    "tags_to_update": ["tag_1",..."tag_n"], 
                                    "new_context_neighborhood": ["new context",...,"new context"],
                                    "new_tags_neighborhood": [["tag_1",...,"tag_n"],...["tag_1",...,"tag_n"]],
                                }
                                `;
}

export interface Evolution {
  /** Neighbour positions (in the listing) the new note links to. */
  links: number[];
  /** The new note's tags after "strengthen". */
  tags?: string[];
  /** Per neighbour position: new context and tags after "update_neighbor". */
  neighbours: { context?: string; tags?: string[] }[];
}

const EvolutionSchema = z.object({
  should_evolve: z.union([z.boolean(), z.string()]),
  actions: z.array(z.unknown()).default([]),
  suggested_connections: z.array(z.unknown()).default([]),
  tags_to_update: StringList.default([]),
  new_context_neighborhood: z.array(z.unknown()).default([]),
  new_tags_neighborhood: z.array(z.unknown()).default([]),
});

/**
 * The evolution decision, applied as `process_memory` applies it. `suggested_connections` name neighbours by their
 * listing position — the prompt shows only `memory index:{i}` — as a number, `"2"` or `"memory index:2"`; anything
 * else (the source stores it as a dangling link) is dropped. Returns null when the reply says not to evolve and
 * undefined when it does not parse (the source logs the error and does not evolve either).
 */
export function parseEvolution(reply: string, neighbourCount: number): Evolution | null | undefined {
  // The prompt's own example writes Python's `True`/`False`, which is not JSON; read them as booleans.
  const v = readJson(reply.replace(/:\s*True\b/gu, ': true').replace(/:\s*False\b/gu, ': false'), EvolutionSchema);
  if (!v) return undefined;
  if (!(v.should_evolve === true || (typeof v.should_evolve === 'string' && /^true$/iu.test(v.should_evolve.trim()))))
    return null;
  const actions = new Set(
    v.actions.filter((a): a is string => typeof a === 'string').map((a) => a.trim().toLowerCase()),
  );
  const out: Evolution = { links: [], neighbours: [] };
  if (actions.has('strengthen')) {
    for (const c of v.suggested_connections) {
      const m =
        typeof c === 'number' ? String(c) : typeof c === 'string' ? /(\d+)\s*$/u.exec(c.trim())?.[1] : undefined;
      const i = m === undefined ? NaN : Number(m);
      if (Number.isInteger(i) && i >= 0 && i < neighbourCount && !out.links.includes(i)) out.links.push(i);
    }
    out.tags = v.tags_to_update;
  }
  if (actions.has('update_neighbor')) {
    for (let i = 0; i < Math.min(neighbourCount, v.new_tags_neighborhood.length); i++) {
      const tags = v.new_tags_neighborhood[i];
      const context = v.new_context_neighborhood[i];
      out.neighbours[i] = {
        ...(Array.isArray(tags) ? { tags: tags.filter((t): t is string => typeof t === 'string') } : {}),
        ...(typeof context === 'string' && context.trim() !== '' ? { context } : {}),
      };
    }
  }
  return out;
}

/** A-MEM's timestamp format `YYYYMMDDHHMM` from an ISO time. */
export function amemTimestamp(iso: string): string {
  return iso.slice(0, 16).replace(/[-T:]/gu, '');
}
