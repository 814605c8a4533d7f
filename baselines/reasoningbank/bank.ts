/**
 * Building a haystack's ReasoningBank once (the haystack is the source's `agent_id`: banks never mix). Sessions are
 * taken in time order, each as one "trajectory" (hanw39/ReasoningBank-MCP src/tools/extract_memory.py @ 74be881):
 * the LLM distils at most 3 memory items (title, description, content) with the success-extraction prompt, each
 * embedded as "title  description content"; offline, every unit is one item (its own text and embedding). Then, as
 * the source's MemoryManager does (src/services/memory_manager.py @ 29e62c3): semantic dedup — an item whose
 * retrieval score against the bank reaches 0.90 among the top 5 is skipped; merge detection — an item with at least
 * 3 bank items scoring ≥ 0.85 among its top 10 forms a group that is merged (LLM: the merge prompt writes one
 * general item, embedded from its `query`; offline: the source's voting strategy keeps the most used, then
 * successful, then newest item) and the group leaves the bank. Items keep their sessions' unit ids; a merged item
 * keeps its group's.
 */
import type { Ctx, MemoryIndex } from '../../src/core/interfaces.ts';
import type { LlmRole } from '../../src/core/llm.ts';
import { seedChat, sessionsOf } from '../derived-memories.ts';
import { dot } from '../../src/index/vectors.ts';
import {
  extractSuccessPrompt,
  formatMergeMemories,
  formatTrajectory,
  mergePrompt,
  parseExtraction,
  parseMerge,
} from './prompts.ts';
import { itemScore, type HybridWeights, type RetrievalStrategy } from './scoring.ts';

export interface BankItem {
  id: string;
  title: string;
  description: string;
  content: string;
  query: string;
  createdMs: number;
  /** Every conversation session is a successful trajectory (README: what "success" means here). */
  success: boolean;
  vector: Float32Array;
  unitIds: string[];
  merged: boolean;
}

export interface BankSettings {
  role: LlmRole | undefined;
  strategy: RetrievalStrategy;
  weights: HybridWeights;
  halflifeDays: number;
  maxItemsPerSession: number;
  dedup: boolean;
  dedupThreshold: number;
  dedupTopK: number;
  merge: boolean;
  mergeStrategy: 'llm' | 'voting';
  mergeThreshold: number;
  mergeMinSimilar: number;
  extractTemperature: number;
  mergeTemperature: number;
}

export interface Bank {
  items: BankItem[];
  stats: {
    extracted: number;
    duplicatesSkipped: number;
    merges: number;
    extractFailures: number;
    mergeFailures: number;
    memoriseMs: number;
  };
}

const WHERE = 'method reasoningbank';
/** The source checks the top 10 for a merge opportunity (memory_manager.py `_check_merge_opportunity`). */
const MERGE_TOP_K = 10;

/** Bank items scored against an embedding at `nowMs`, best first (ties: bank order). During memorising no item has been retrieved yet. */
export function scoreBank(
  items: readonly BankItem[],
  vector: Float32Array,
  nowMs: number,
  s: Pick<BankSettings, 'strategy' | 'weights' | 'halflifeDays'>,
  counts?: (id: string) => number,
): { item: BankItem; score: number }[] {
  return items
    .map((item, i) => ({ item, i, score: scoreOf(item, vector, nowMs, s, counts) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ item, score }) => ({ item, score }));
}

function scoreOf(
  item: BankItem,
  vector: Float32Array,
  nowMs: number,
  s: Pick<BankSettings, 'strategy' | 'weights' | 'halflifeDays'>,
  counts?: (id: string) => number,
): number {
  return itemScore(
    dot(vector, item.vector),
    { createdMs: item.createdMs, success: item.success, retrievalCount: counts?.(item.id) ?? 0 },
    nowMs,
    s,
  );
}

/**
 * The items of `scoreBank(items, …).slice(0, k)` that score at least `threshold`: those passing are a prefix of that
 * order, so they are the first k passing items in it — found without sorting the whole bank for each new item (the
 * dedup and merge checks ran one full sort per item: quadratic in a haystack's units).
 */
function topAtLeast(
  items: readonly BankItem[],
  vector: Float32Array,
  nowMs: number,
  s: BankSettings,
  threshold: number,
  k: number,
): BankItem[] {
  const passing: { item: BankItem; i: number; score: number }[] = [];
  items.forEach((item, i) => {
    const score = scoreOf(item, vector, nowMs, s);
    if (score >= threshold) passing.push({ item, i, score });
  });
  return passing
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, k)
    .map((p) => p.item);
}

/**
 * A session's items: offline, one per unit; with an LLM, the strategies it extracts from the session as a
 * successful trajectory (its opening user turn standing for the task query, README).
 */
async function sessionItems(
  index: MemoryIndex,
  session: ReturnType<typeof sessionsOf>[number],
  ctx: Ctx,
  s: BankSettings,
  stats: { extractFailures: number },
): Promise<Omit<BankItem, 'vector'>[]> {
  const units = session.unitIds.map((id) => index.unit(id)!);
  const createdMs = Date.parse(session.at);
  if (s.role === undefined) {
    return units.map((u) => ({
      id: `u:${u.id}`,
      title: titleOf(u.text),
      description: `${u.speaker ?? u.role}, ${u.at.slice(0, 10)}`,
      content: u.text,
      query: u.text,
      createdMs,
      success: true,
      unitIds: [u.id],
      merged: false,
    }));
  }
  const opening = (units.find((u) => u.role === 'user') ?? units[0]!).text.slice(0, 200);
  const trajectory = formatTrajectory(units.map((u) => ({ role: u.speaker ?? u.role, content: u.text })));
  const reply = await seedChat(
    ctx,
    s.role,
    'index:extract',
    [{ role: 'user', content: extractSuccessPrompt(opening, trajectory) }],
    { temperature: s.extractTemperature, maxTokens: 2000 },
    WHERE,
  );
  const { items, ok } = parseExtraction(reply);
  if (!ok) stats.extractFailures++;
  return items.slice(0, s.maxItemsPerSession).map((m, n) => ({
    id: `${session.sessionId}#i${n + 1}`,
    ...m,
    query: opening,
    createdMs,
    success: true,
    unitIds: session.unitIds,
    merged: false,
  }));
}

export async function buildBank(index: MemoryIndex, ctx: Ctx, s: BankSettings): Promise<Bank> {
  const t0 = performance.now();
  const stats = { extracted: 0, duplicatesSkipped: 0, merges: 0, extractFailures: 0, mergeFailures: 0, memoriseMs: 0 };
  const vectors = await index.vectors();
  const position = new Map(index.units.map((u, i) => [u.id, i]));
  const sessions = sessionsOf(index);
  // Extraction calls are independent per session: all in flight at once (the client's scheduler bounds them).
  const batches = await Promise.all(sessions.map((session) => sessionItems(index, session, ctx, s, stats)));
  const bank: BankItem[] = [];
  for (const batch of batches) {
    if (batch.length === 0) continue;
    const vecs =
      s.role === undefined
        ? batch.map((b) => vectors[position.get(b.unitIds[0]!)!]!)
        : await index.embedder.embed(batch.map((b) => `${b.title}  ${b.description} ${b.content}`));
    const fresh = batch.map((b, n) => ({ ...b, vector: vecs[n]! }));
    stats.extracted += fresh.length;
    const now = fresh[0]!.createdMs;
    const unique: BankItem[] = [];
    for (const item of fresh) {
      if (s.dedup && topAtLeast(bank, item.vector, now, s, s.dedupThreshold, s.dedupTopK).length > 0)
        stats.duplicatesSkipped++;
      else unique.push(item);
    }
    const groups: BankItem[][] = [];
    if (s.merge) {
      for (const item of unique) {
        const similar = topAtLeast(bank, item.vector, now, s, s.mergeThreshold, MERGE_TOP_K);
        // llm_merge.py / voting_merge.py `should_merge`: group large enough and ≥ 60% successful (all are here).
        if (similar.length >= s.mergeMinSimilar) groups.push([...similar, item]);
      }
    }
    bank.push(...unique);
    for (const group of groups) {
      if (!group.every((g) => bank.includes(g))) continue;
      const merged = await mergeGroup(group, now, index, ctx, s);
      if (!merged) {
        stats.mergeFailures++;
        continue;
      }
      stats.merges++;
      const at = bank.indexOf(group[0]!);
      for (const g of group) bank.splice(bank.indexOf(g), 1);
      bank.splice(Math.min(at, bank.length), 0, merged);
    }
  }
  stats.memoriseMs = performance.now() - t0;
  return { items: bank, stats };
}

async function mergeGroup(
  group: BankItem[],
  now: number,
  index: MemoryIndex,
  ctx: Ctx,
  s: BankSettings,
): Promise<BankItem | undefined> {
  const unitIds = [...new Set(group.flatMap((g) => g.unitIds))];
  if (s.mergeStrategy === 'voting' || s.role === undefined) {
    // voting_merge.py: most retrieved, then successful, then newest (Python's stable sort keeps group order on ties).
    const best = [...group].sort((a, b) => Number(b.success) - Number(a.success) || b.createdMs - a.createdMs)[0]!;
    return { ...best, unitIds, merged: true };
  }
  const reply = await seedChat(
    ctx,
    s.role,
    'index:merge',
    [{ role: 'user', content: mergePrompt(group.length, formatMergeMemories(group)) }],
    { temperature: s.mergeTemperature, maxTokens: 2000 },
    WHERE,
  );
  const m = parseMerge(reply);
  if (!m) return undefined;
  const [vector] = await index.embedder.embed([m.query || m.description]);
  return {
    id: `merged:${group.map((g) => g.id).join('+')}`,
    ...m,
    createdMs: now,
    success: true,
    vector: vector!,
    unitIds,
    merged: true,
  };
}

/** Offline title: the unit's first words (CJK: first characters). Exported for tests. */
export function titleOf(text: string): string {
  const trimmed = text.trim();
  // The first 8 of `trimmed.split(/\s+/u)`, read off the start rather than splitting a whole session's text.
  const words = (FIRST_WORDS.exec(trimmed)?.[0] ?? '').split(/\s+/u);
  const t = /\s/u.test(trimmed) ? words.join(' ') : text.slice(0, 12);
  return t.length < trimmed.length ? `${t}…` : t;
}
const FIRST_WORDS = /^\S+(?:\s+\S+){0,7}/u;
