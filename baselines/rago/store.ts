/**
 * Building a haystack's rago memory store once (the source design's `agent_memory` table and `StoreIfWorthwhile`): each
 * session, in time order, is one completed "task" whose transcript the LLM reads with the spec's summary prompt
 * (temperature 0.3, 1000 tokens) and turns into typed memories with importance; offline, every unit is one `context`
 * memory with importance 0.5. Each memory is embedded (its content) and indexed for keyword search (Okapi BM25 over
 * the contents, standing in for SQLite FTS5, whose `bm25()` ranking is the same Okapi formula). Memories keep their
 * session's id (the spec's `session_id`) and its unit ids.
 *
 * Offline, the memories are the index's units (every unit once, same text), in time order. The keyword index is
 * then the index's own default-settings BM25 (bm25-shared.ts), which the runner builds once per haystack and the
 * `bm25` method shares, read through the permutation from memory order to unit order: BM25 over the same set of
 * texts with the same settings, without tokenising the haystack a second time. When the haystack is not in time
 * order (210 of LongMemEval S's 499), the documents are indexed in the haystack's order rather than the memories':
 * idf, lengths and weights are the same, and only BM25's average idf (summed over the vocabulary in first-seen
 * order, used for the ε floor of negative idfs) may round differently in its last bit. SQLite FTS5, which this
 * index stands in for, defines no document order either.
 */
import type { Ctx, MemoryIndex } from '../../src/core/interfaces.ts';
import type { LlmRole } from '../../src/core/llm.ts';
import { formatDate, renderUnit } from '../../src/core/render.ts';
import { Bm25Index } from '../../src/index/bm25.ts';
import { bm25Settings, sharedBm25 } from '../../src/index/bm25-shared.ts';
import { seedChat, sessionsOf } from '../derived-memories.ts';
import { parseSummary, summaryPrompt, type MemoryType } from './prompts.ts';

export interface RagoMemory {
  id: string;
  sessionId: string;
  type: MemoryType;
  content: string;
  importance: number;
  createdMs: number;
  vector: Float32Array;
  unitIds: string[];
}

/** Keyword search over the memories: BM25 score of each memory, in memory order. */
export interface KeywordIndex {
  scores(query: string): ArrayLike<number>;
}

export interface RagoStore {
  memories: RagoMemory[];
  keyword: KeywordIndex | undefined;
  /** Sessions with memories, oldest first (for the question's session scope). */
  sessions: { sessionId: string; atMs: number }[];
  stats: { extractFailures: number; skippedItems: number; memoriseMs: number };
}

export interface StoreSettings {
  role: LlmRole | undefined;
  temperature: number;
  maxTokens: number;
}

const WHERE = 'method rago';
const DEFAULT_BM25 = bm25Settings({});

/**
 * For memories that are the index's units (each unit exactly once, with its text), the unit position of each memory;
 * otherwise undefined (see header).
 */
function unitPositions(
  memories: readonly Omit<RagoMemory, 'vector'>[],
  index: MemoryIndex,
  position: ReadonlyMap<string, number>,
): Int32Array | undefined {
  if (memories.length !== index.units.length) return undefined;
  const at = new Int32Array(memories.length);
  const seen = new Uint8Array(memories.length);
  for (let i = 0; i < memories.length; i++) {
    const m = memories[i]!;
    const p = m.unitIds.length === 1 ? position.get(m.unitIds[0]!) : undefined;
    if (p === undefined || seen[p] === 1 || m.content !== index.units[p]!.text) return undefined;
    seen[p] = 1;
    at[i] = p;
  }
  return at;
}

/** The index's shared BM25, scores read in memory order. */
function sharedKeywordIndex(index: MemoryIndex, at: Int32Array): KeywordIndex {
  const bm25 = sharedBm25(index.units, DEFAULT_BM25);
  return {
    scores(query) {
      const byUnit = bm25.scores(query);
      const out = new Float64Array(at.length);
      for (let i = 0; i < at.length; i++) out[i] = byUnit[at[i]!]!;
      return out;
    },
  };
}

export async function buildStore(index: MemoryIndex, ctx: Ctx, s: StoreSettings): Promise<RagoStore> {
  const t0 = performance.now();
  const stats = { extractFailures: 0, skippedItems: 0, memoriseMs: 0 };
  const vectors = await index.vectors();
  const position = new Map(index.units.map((u, i) => [u.id, i]));
  const sessions = sessionsOf(index);
  const perSession = await Promise.all(
    sessions.map(async (session): Promise<Omit<RagoMemory, 'vector'>[]> => {
      const createdMs = Date.parse(session.at);
      const units = session.unitIds.map((id) => index.unit(id)!);
      if (s.role === undefined) {
        return units.map((u) => ({
          id: `u:${u.id}`,
          sessionId: session.sessionId,
          type: 'context',
          content: u.text,
          importance: 0.5,
          createdMs,
          unitIds: [u.id],
        }));
      }
      // README: a session is the completed task; its transcript is the task result.
      const transcript = units.map((u) => renderUnit(u, { withDates: false })).join('\n');
      const prompt = summaryPrompt(`Conversation on ${formatDate(session.at)}`, transcript);
      const reply = await seedChat(
        ctx,
        s.role,
        'index:extract',
        [{ role: 'user', content: prompt }],
        { temperature: s.temperature, maxTokens: s.maxTokens },
        WHERE,
      );
      const parsed = parseSummary(reply);
      if (!parsed.ok) stats.extractFailures++;
      stats.skippedItems += parsed.skipped;
      return parsed.memories.map((m, n) => ({
        id: `${session.sessionId}#m${n + 1}`,
        sessionId: session.sessionId,
        ...m,
        createdMs,
        unitIds: session.unitIds,
      }));
    }),
  );
  const flat = perSession.flat();
  const vecs =
    s.role === undefined
      ? flat.map((m) => vectors[position.get(m.unitIds[0]!)!]!)
      : flat.length === 0
        ? []
        : await index.embedder.embed(flat.map((m) => m.content));
  const memories = flat.map((m, i) => ({ ...m, vector: vecs[i]! }));
  const withMemories = new Set(memories.map((m) => m.sessionId));
  const at = memories.length === 0 ? undefined : unitPositions(memories, index, position);
  const keyword =
    memories.length === 0
      ? undefined
      : at
        ? sharedKeywordIndex(index, at)
        : new Bm25Index(memories.map((m) => m.content));
  stats.memoriseMs = performance.now() - t0;
  return {
    memories,
    keyword,
    sessions: sessions
      .filter((x) => withMemories.has(x.sessionId))
      .map((x) => ({ sessionId: x.sessionId, atMs: Date.parse(x.at) })),
    stats,
  };
}
