/**
 * Building a haystack's rago memory store once (seeds/001 §2.1 `agent_memory` table, §4.2 `StoreIfWorthwhile`): each
 * session, in time order, is one completed "task" whose transcript the LLM reads with the seed's summary prompt
 * (temperature 0.3, 1000 tokens) and turns into typed memories with importance; offline, every unit is one `context`
 * memory with importance 0.5. Each memory is embedded (its content) and indexed for keyword search (Okapi BM25 over
 * the contents, standing in for SQLite FTS5, whose `bm25()` ranking is the same Okapi formula). Memories keep their
 * session's id (the seed's `session_id`) and its unit ids.
 *
 * Offline, when the memories are the index's units in the index's order (every unit once, same text — sessions in
 * time order, as a LongMemEval haystack is), the keyword index is the index's own default-settings BM25
 * (bm25-shared.ts), which the runner builds once per haystack and the `bm25` method shares: the same class over the
 * same texts in the same order with the same settings, so the same scores (BM25's average idf sums the vocabulary in
 * first-seen order, which is why the order must match), without tokenising the haystack a second time.
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

export interface RagoStore {
  memories: RagoMemory[];
  keyword: Bm25Index | undefined;
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

/** Whether memory i is unit i of the index with its text, for every i (see header). */
function sameAsUnits(memories: readonly Omit<RagoMemory, 'vector'>[], index: MemoryIndex): boolean {
  return memories.length === index.units.length && memories.every((m, i) => m.unitIds.length === 1 && m.unitIds[0] === index.units[i]!.id && m.content === index.units[i]!.text);
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
        return units.map((u) => ({ id: `u:${u.id}`, sessionId: session.sessionId, type: 'context', content: u.text, importance: 0.5, createdMs, unitIds: [u.id] }));
      }
      // README: a session is the completed task; its transcript is the task result.
      const transcript = units.map((u) => renderUnit(u, { withDates: false })).join('\n');
      const prompt = summaryPrompt(`Conversation on ${formatDate(session.at)}`, transcript);
      const reply = await seedChat(ctx, s.role, 'index:extract', [{ role: 'user', content: prompt }], { temperature: s.temperature, maxTokens: s.maxTokens }, WHERE);
      const parsed = parseSummary(reply);
      if (!parsed.ok) stats.extractFailures++;
      stats.skippedItems += parsed.skipped;
      return parsed.memories.map((m, n) => ({ id: `${session.sessionId}#m${n + 1}`, sessionId: session.sessionId, ...m, createdMs, unitIds: session.unitIds }));
    }),
  );
  const flat = perSession.flat();
  const vecs = s.role === undefined ? flat.map((m) => vectors[position.get(m.unitIds[0]!)!]!) : flat.length === 0 ? [] : await index.embedder.embed(flat.map((m) => m.content));
  const memories = flat.map((m, i) => ({ ...m, vector: vecs[i]! }));
  const withMemories = new Set(memories.map((m) => m.sessionId));
  const keyword = memories.length === 0 ? undefined : sameAsUnits(memories, index) ? sharedBm25(index.units, DEFAULT_BM25) : new Bm25Index(memories.map((m) => m.content));
  stats.memoriseMs = performance.now() - t0;
  return {
    memories,
    keyword,
    sessions: sessions.filter((x) => withMemories.has(x.sessionId)).map((x) => ({ sessionId: x.sessionId, atMs: Date.parse(x.at) })),
    stats,
  };
}
