/**
 * Helpers shared by the spec memory systems whose memories are derived from the haystack (generative-agents'
 * observations and reflections, reasoningbank's memory items, rago's typed memories):
 *
 * - `expandToUnits`: a derived memory keeps the ids of the units it came from; the ranked memories, best first, are
 *   expanded to those units (in memory rank order, each unit once, at most k) so recall@K and nDCG are computed on
 *   the same unit ids as every other method. A unit takes the score of the best memory that reached it, so scores
 *   stay non-increasing.
 * - `AccessLog`: which memories each question retrieved, per haystack, so access counts and last-access times
 *   (generative-agents recency, reasoningbank confidence, rago access counts) can follow the questions asked before.
 *
 * Determinism of the access log: a question sees only the accesses of questions asked strictly earlier
 * (`askedAt` before its own). Questions with the same `askedAt` are simultaneous and never see each other, so a
 * question's result does not depend on which of them ran first. In both benchmark datasets every question of a
 * haystack shares one `askedAt` (LoCoMo: the last session's time) or is alone on its haystack (LongMemEval), so
 * results are deterministic under any scheduling; with distinct times the earlier questions must have run first,
 * which the runner guarantees only at concurrency 1 (questions in file order). Re-running a question replaces its
 * own entry, never duplicates it.
 */
import type { Ctx, MemoryIndex, MethodCapabilities } from '../src/core/interfaces.ts';
import { InputError } from '../src/core/errors.ts';
import type { ChatMessage, LlmRole } from '../src/core/llm.ts';
import type { ScoredUnit } from '../src/core/types.ts';

export interface RankedMemory {
  score: number;
  unitIds: readonly string[];
}

/** Source units of `memories` (best first), each once, at most `k`; unknown ids are an error of the method. */
export function expandToUnits(memories: readonly RankedMemory[], index: MemoryIndex, k: number): ScoredUnit[] {
  const out: ScoredUnit[] = [];
  const seen = new Set<string>();
  for (const m of memories) {
    for (const id of m.unitIds) {
      if (out.length >= k) return out;
      if (seen.has(id)) continue;
      const unit = index.unit(id);
      if (!unit) throw new Error(`derived memory points at unit "${id}", which is not in the index`);
      seen.add(id);
      out.push({ unit, score: m.score });
    }
  }
  return out;
}

interface Access {
  askedAtMs: number;
  memoryIds: readonly string[];
}

/** What the questions asked before a given time did to each memory. */
export interface AccessesBefore {
  count(memoryId: string): number;
  /** Epoch ms of the latest earlier question that retrieved the memory, or undefined. */
  lastMs(memoryId: string): number | undefined;
  /** How many earlier questions were seen (for notes). */
  questions: number;
}

export class AccessLog {
  private readonly byHaystack = new Map<string, Map<string, Access>>();

  before(haystack: string, askedAt: string): AccessesBefore {
    const t = Date.parse(askedAt);
    const counts = new Map<string, number>();
    const last = new Map<string, number>();
    let questions = 0;
    for (const a of this.byHaystack.get(haystack)?.values() ?? []) {
      if (!(a.askedAtMs < t)) continue;
      questions++;
      for (const id of a.memoryIds) {
        counts.set(id, (counts.get(id) ?? 0) + 1);
        last.set(id, Math.max(last.get(id) ?? -Infinity, a.askedAtMs));
      }
    }
    return { count: (id) => counts.get(id) ?? 0, lastMs: (id) => last.get(id), questions };
  }

  record(haystack: string, queryId: string, askedAt: string, memoryIds: readonly string[]): void {
    let log = this.byHaystack.get(haystack);
    if (!log) {
      log = new Map();
      this.byHaystack.set(haystack, log);
    }
    log.set(queryId, { askedAtMs: Date.parse(askedAt), memoryIds: [...memoryIds] });
  }
}

/** Units of one session, in index order, grouped and sorted by session time (ties: first appearance). */
export function sessionsOf(index: MemoryIndex): { sessionId: string; at: string; unitIds: string[] }[] {
  const groups = new Map<string, { sessionId: string; at: string; unitIds: string[]; first: number }>();
  index.units.forEach((u, i) => {
    let g = groups.get(u.sessionId);
    if (!g) {
      g = { sessionId: u.sessionId, at: u.at, unitIds: [], first: i };
      groups.set(u.sessionId, g);
    }
    if (u.at < g.at) g.at = u.at;
    g.unitIds.push(u.id);
  });
  return [...groups.values()]
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.first - b.first)
    .map(({ sessionId, at, unitIds }) => ({ sessionId, at, unitIds }));
}

/** The capabilities every spec memory system declares, from its resolved LLM role. */
export function seedCapabilities(role: LlmRole | undefined): MethodCapabilities {
  return role === undefined
    ? { output: 'units', memorises: true, degraded: 'offline' }
    : { output: 'units', memorises: true, llmRoles: [role] };
}

/**
 * One chat call of a spec system's LLM step through the shared client (cached, accounted under `stage`) at the
 * source's temperature; returns the reply text.
 */
export async function seedChat(
  ctx: Ctx,
  role: LlmRole,
  stage: string,
  messages: ChatMessage[],
  opts: { temperature: number; maxTokens: number },
  where: string,
): Promise<string> {
  if (!ctx.llm?.has(role))
    throw new InputError(`needs an LLM for role "${role}" (configure one, or set mode: offline)`, where);
  const result = await ctx.llm
    .forRole(role)
    .chat({ messages, temperature: opts.temperature, maxTokens: opts.maxTokens }, { stage, calls: ctx.calls });
  return result.text;
}
