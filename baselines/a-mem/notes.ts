/**
 * Builds A-MEM's notes for one haystack, once (the method memoises it per haystack): one note per memory unit, added
 * in time order as `AgenticMemorySystem.add_note` adds them (agiresearch/A-mem@ceffb86, agentic_memory/memory_system.py).
 *
 * LLM mode, per note: `analyze_content` (stage `index:note`) gives keywords, context and tags; then `process_memory`
 * finds the `neighbours` (5) nearest earlier notes by the content's cosine and asks the evolution prompt (stage
 * `index:evolve`): "strengthen" adds links from the new note to neighbours and replaces its tags, "update_neighbor"
 * rewrites the neighbours' context and tags. The notes' contents never change, so the construction calls (one per
 * unit) are made concurrently (the client's scheduler bounds them); evolution is sequential because each decision
 * sees the neighbours' evolved metadata.
 *
 * Offline stand-in (degraded): keywords from text analysis (the project's entity/keyword extractor), tags = the
 * note's keywords most frequent across the haystack (broad themes), context "General" (A-MEM's own default), links
 * to the earlier nearest neighbours with cosine ≥ `linkThreshold`, no evolution.
 */
import type { Ctx, MemoryIndex } from '../../src/core/interfaces.ts';
import type { LlmRole } from '../../src/core/llm.ts';
import { extractEntities } from '../../src/strategies/text.ts';
import { chatText } from '../llm-mode.ts';
import {
  amemTimestamp,
  analyzePrompt,
  evolutionPrompt,
  parseAnalysis,
  parseEvolution,
  type NoteView,
} from './prompts.ts';
import { dot } from '../../src/index/vectors.ts';

export interface Note extends NoteView {
  /** Position of the source unit in the index (the note's id). */
  unit: number;
  /** Positions of linked notes' units. */
  links: number[];
}

export interface NoteSettings {
  role: LlmRole | undefined;
  /** Nearest neighbours shown to the evolution step / considered for offline links (A-MEM: k=5). */
  neighbours: number;
  linkThreshold: number;
  where: string;
}

export interface Notes {
  notes: Note[];
  /** Replies that did not parse (source fallbacks used). */
  fallbacks: number;
  evolutions: number;
}

/** Unit positions in time order (ties: index order), the order notes are added. */
export function timeOrder(index: MemoryIndex): number[] {
  return index.units
    .map((u, i) => ({ at: u.at, i }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.i - b.i))
    .map((x) => x.i);
}

/** The `n` earlier notes nearest to `unit` by cosine, best first (ties: earlier first). */
export function nearestEarlier(
  vectors: readonly Float32Array[],
  unit: number,
  earlier: readonly number[],
  n: number,
): { unit: number; cos: number }[] {
  return earlier
    .map((u, order) => ({ unit: u, cos: dot(vectors[unit]!, vectors[u]!), order }))
    .sort((a, b) => b.cos - a.cos || a.order - b.order)
    .slice(0, n)
    .map(({ unit: u, cos }) => ({ unit: u, cos }));
}

export async function buildNotes(index: MemoryIndex, ctx: Ctx, s: NoteSettings): Promise<Notes> {
  const order = timeOrder(index);
  const vectors = await index.vectors();
  const notes: Note[] = index.units.map((u, unit) => ({
    unit,
    content: u.text,
    timestamp: amemTimestamp(u.at),
    keywords: [],
    context: 'General',
    tags: [],
    links: [],
  }));
  return s.role ? llmNotes(notes, order, vectors, ctx, s, s.role) : offlineNotes(notes, order, vectors, s);
}

async function llmNotes(
  notes: Note[],
  order: number[],
  vectors: readonly Float32Array[],
  ctx: Ctx,
  s: NoteSettings,
  role: LlmRole,
): Promise<Notes> {
  let fallbacks = 0;
  let evolutions = 0;
  const metas = await Promise.all(
    notes.map((n) =>
      chatText(ctx, role, 'index:note', [{ role: 'user', content: analyzePrompt(n.content) }], 1000, s.where),
    ),
  );
  metas.forEach((reply, i) => {
    const meta = parseAnalysis(reply);
    if (!meta) fallbacks++;
    else Object.assign(notes[i]!, meta);
  });
  const added: number[] = [];
  for (const unit of order) {
    const note = notes[unit]!;
    if (added.length > 0) {
      const near = nearestEarlier(vectors, unit, added, s.neighbours).map((x) => x.unit);
      const reply = await chatText(
        ctx,
        role,
        'index:evolve',
        [
          {
            role: 'user',
            content: evolutionPrompt(
              note,
              near.map((u) => notes[u]!),
            ),
          },
        ],
        2000,
        s.where,
      );
      const evo = parseEvolution(reply, near.length);
      if (evo === undefined) fallbacks++;
      if (evo) {
        evolutions++;
        for (const i of evo.links) if (!note.links.includes(near[i]!)) note.links.push(near[i]!);
        if (evo.tags) note.tags = evo.tags;
        evo.neighbours.forEach((upd, i) => {
          const nb = notes[near[i]!]!;
          if (upd.tags) nb.tags = upd.tags;
          if (upd.context) nb.context = upd.context;
        });
      }
    }
    added.push(unit);
  }
  return { notes, fallbacks, evolutions };
}

function offlineNotes(notes: Note[], order: number[], vectors: readonly Float32Array[], s: NoteSettings): Notes {
  const df = new Map<string, number>();
  const keywords = notes.map((n) => extractEntities(n.content, 8));
  for (const ks of keywords) for (const k of new Set(ks)) df.set(k, (df.get(k) ?? 0) + 1);
  notes.forEach((n, i) => {
    n.keywords = keywords[i]!;
    n.tags = [...n.keywords].sort((a, b) => (df.get(b) ?? 0) - (df.get(a) ?? 0)).slice(0, 3);
  });
  const added: number[] = [];
  for (const unit of order) {
    notes[unit]!.links = nearestEarlier(vectors, unit, added, s.neighbours)
      .filter((x) => x.cos >= s.linkThreshold)
      .map((x) => x.unit);
    added.push(unit);
  }
  return { notes, fallbacks: 0, evolutions: 0 };
}

/**
 * The text a note is embedded with for retrieval (A-MEM paper, eq. 3: content, keywords, tags, context). The
 * placeholder context `General` (the source's default when analysis gives none) is left out: it would add the same
 * word to every note.
 */
export function noteText(n: NoteView): string {
  return [n.content, n.keywords.join(', '), n.tags.join(', '), n.context === 'General' ? '' : n.context]
    .filter((x) => x !== '')
    .join('\n');
}
