/**
 * Strategy 4, multi-hop reasoning (plan §2.3 策略 4): decompose the question into sub-questions (LLM, or the rules of
 * decompose.ts offline: aggregation questions → the question, its items, each content word; conjunctions → clauses),
 * retrieve per step with the earlier findings appended (the plan's
 * `f"{sub_q}\n\n已知信息：{intermediate_results}"`), extract an intermediate answer per step (LLM, or offline the
 * best-matching sentence of the step's top units), and return the memories plus the intermediate reasoning. At most
 * `maxHops` steps (plan: max_hops=3).
 *
 * Budget: every step retrieves k candidates (the entity-ranked first stage of factual.ts; `baseRanking: semantic` =
 * the bare cosine) and the lists are merged by maximal marginal relevance (mmr.ts) over each unit's best
 * per-step relevance (min-max normalised per step, so steps on different scales mix), so the k returned memories cover
 * several sessions rather than each step getting a slice of k. `merge: best-score` restores the previous merge
 * (sorted by best cosine).
 *
 * Bridge step (offline): after two steps, the names (text.ts `namedWords`) that at least two of the evidence memories
 * share and the question does not mention — "Hangzhou" / 杭州 for the plan's two restaurant recommendations — are
 * searched as a step of their own (the bridge entity of multi-hop QA, as in HotpotQA's bridge questions), which
 * brings in the memories linked through them ("I moved to Hangzhou"). LLM mode keeps the LLM's sub-questions.
 *
 * For aggregation questions the reader also gets the collected evidence, dated and in time order, with how many
 * memories and sessions it spans ("passes the aggregation to the reader"; the counting itself is the reader's).
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { MemoryUnit, Query, Retrieval, RetrievalNotes, ScoredUnit } from '../core/types.ts';
import { decomposeOffline, isAggregation } from './decompose.ts';
import { baseRanked, BaseRankingSchema } from './factual.ts';
import { askJson, askText, strategyClient } from './llm-step.ts';
import { mmrOrder } from './mmr.ts';
import { dayOf, monotoneScores, renderContext } from './render.ts';
import type { Strategy } from '../core/interfaces.ts';
import {
  contentWords,
  countOverlap,
  extractEntities,
  memoriseUnitKeys,
  sentences,
  unitLower,
  unitNamedWords,
  unitSentenceKeys,
} from './text.ts';

export { decomposeOffline, isAggregation } from './decompose.ts';

export const MultiHopOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** Plan: max_hops=3. */
    maxHops: z.number().int().min(1).default(3),
    /** Units each step's intermediate answer is read from. */
    evidencePerHop: z.number().int().positive().default(3),
    baseRanking: BaseRankingSchema.default('entity'),
    /** `mmr`: maximal marginal relevance over the steps' lists (default); `best-score`: sorted by best score. */
    merge: z.enum(['mmr', 'best-score']).default('mmr'),
    /** MMR trade-off λ (relevance weight). */
    mmrLambda: z.number().min(0).max(1).default(0.7),
  })
  .strict();
export type MultiHopOptions = z.output<typeof MultiHopOptionsSchema>;

const SubQuestionsSchema = z.object({ subQuestions: z.array(z.string()) });

export function decomposePrompt(question: string): string {
  return (
    'Break the question below into 2-3 simple sub-questions, in the order they should be answered. Each ' +
    'sub-question must be answerable by searching the memory of past conversations; later sub-questions may use ' +
    'the answers of earlier ones.\n\n' +
    'Example: "What hobbies do Wang and I have in common?" -> {"subQuestions": ["What are my hobbies?", "What are Wang\'s hobbies?"]}\n\n' +
    `Question: ${question}\n\nReturn JSON: {"subQuestions": ["...", "..."]}`
  );
}

export function intermediatePrompt(subQuestion: string, memories: readonly ScoredUnit[]): string {
  const lines = memories.map((m) => `[${dayOf(m.unit.at)}] ${m.unit.text}`).join('\n');
  return (
    `Answer the question briefly using only the memories below. If they do not contain the answer, reply "unknown".\n\n` +
    `Memories:\n${lines}\n\nQuestion: ${subQuestion}\nAnswer:`
  );
}

/** Offline intermediate answer: the sentence of the evidence with most sub-question keywords (ties: earliest). */
export function extractiveAnswer(subQuestion: string, memories: readonly ScoredUnit[]): string {
  const entities = extractEntities(subQuestion);
  let best = '';
  let bestOverlap = 0;
  for (const m of memories) {
    for (const { sentence: s, keys } of unitSentenceKeys(m.unit)) {
      const o = countOverlap(entities, keys);
      if (o > bestOverlap) {
        bestOverlap = o;
        best = `[${dayOf(m.unit.at)}] ${s.length > 300 ? `${s.slice(0, 300)}…` : s}`;
      }
    }
  }
  return bestOverlap > 0 ? best : 'unknown';
}

/** Names that evidence memories of ≥ 2 sessions share, the question does not mention, and some memory outside the
 * evidence mentions (a bridge must lead somewhere), most shared first (at most 3; Chinese words of one character are
 * too ambiguous to bridge). */
export function bridgeWords(
  question: string,
  evidence: readonly ScoredUnit[],
  haystack: readonly MemoryUnit[],
): string[] {
  const asked = new Set(contentWords(question));
  const lowerQ = question.toLowerCase();
  const sessionsOf = new Map<string, Set<string>>();
  for (const e of evidence) {
    for (const w of unitNamedWords(e.unit)) {
      if (asked.has(w) || lowerQ.includes(w) || (/\p{Script=Han}/u.test(w) && [...w].length < 2)) continue;
      sessionsOf.set(w, (sessionsOf.get(w) ?? new Set<string>()).add(e.unit.sessionId));
    }
  }
  // Most shared first (a stable sort: ties keep first-seen order), and the haystack searched only until three are
  // found: the same three as searching for every shared name first, which scanned the haystack once per name.
  const ranked = [...sessionsOf.entries()].filter(([, s]) => s.size >= 2).sort((a, b) => b[1].size - a[1].size);
  if (ranked.length === 0) return [];
  const evidenceIds = new Set(evidence.map((e) => e.unit.id));
  // Lower-cased once per unit, not the whole haystack again on every question.
  const outside = haystack.filter((u) => !evidenceIds.has(u.id)).map(unitLower);
  const out: string[] = [];
  for (const [w] of ranked) {
    if (out.length === 3) break;
    if (outside.some((t) => t.includes(w))) out.push(w);
  }
  return out;
}

/** Per-step min-max normalised relevance, so steps whose scores live on different scales mix fairly. */
function normalised(found: readonly ScoredUnit[]): number[] {
  const scores = found.map((f) => f.score);
  const hi = Math.max(...scores);
  const lo = Math.min(...scores);
  return scores.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 1));
}

/** The dated evidence list for aggregation questions (see header): the returned units from the sessions of a
 * decomposition step's evidence (not the bridge's), each as its sentence naming the most question words (else its
 * first). */
function aggregationLines(
  units: readonly ScoredUnit[],
  question: string,
  evidenceSessions: ReadonlySet<string>,
): string[] {
  const hits = units
    .filter((u) => evidenceSessions.has(u.unit.sessionId))
    .map((u) => {
      const best = extractiveAnswer(question, [u]);
      const first = sentences(u.unit.text)[0] ?? u.unit.text;
      return {
        u,
        line:
          best !== 'unknown' ? best : `[${dayOf(u.unit.at)}] ${first.length > 300 ? `${first.slice(0, 300)}…` : first}`,
      };
    })
    .sort((a, b) => (a.u.unit.at < b.u.unit.at ? -1 : a.u.unit.at > b.u.unit.at ? 1 : 0));
  if (hits.length === 0) return [];
  const sessions = new Set(hits.map((h) => h.u.unit.sessionId)).size;
  return [
    `Collected for the aggregation: ${hits.length} memories in ${sessions} sessions, oldest first:`,
    ...hits.map((h) => `- ${h.line}`),
  ];
}

type Found = { unit: ScoredUnit['unit']; score: number; relevance: number; firstSeen: number };
type Hop = { subQuestion: string; searchText: string; found: string[]; answer: string };

/** The steps: the offline decomposition, or the LLM's sub-questions when it gives any (`mode: llm`). */
async function decompose(query: Query, options: MultiHopOptions, ctx: Ctx, notes: RetrievalNotes): Promise<string[]> {
  const offline = decomposeOffline(query.text, options.maxHops);
  notes.decomposition = offline.kind;
  if (options.mode !== 'llm') return offline.steps;
  const reply = await askJson(
    strategyClient(ctx, 'multi-hop'),
    ctx,
    'strategy.multi-hop.decompose',
    decomposePrompt(query.text),
    SubQuestionsSchema,
  );
  const subs = reply.ok ? reply.value.subQuestions.map((s) => s.trim()).filter(Boolean) : [];
  if (!reply.ok) notes.llmFallback = `unparsable reply: ${reply.reply}`;
  if (subs.length === 0) return offline.steps;
  notes.decomposition = 'llm';
  return subs.slice(0, options.maxHops);
}

/**
 * Runs the steps in order, each searched with the answers known so far, and after the second (offline
 * decomposition) inserts a bridge step made of the names the evidence shares. Returns every unit found with its
 * best score and relevance, the hops, and the sessions of the decomposition steps' evidence.
 */
async function runHops(
  query: Query,
  index: MemoryIndex,
  k: number,
  ctx: Ctx,
  options: MultiHopOptions,
  firstSteps: string[],
  notes: RetrievalNotes,
): Promise<{ best: Map<string, Found>; hops: Hop[]; stepEvidence: Set<string> }> {
  let steps = firstSteps;
  const best = new Map<string, Found>();
  const hops: Hop[] = [];
  let seen = 0;
  const evidenceSoFar: ScoredUnit[] = [];
  let bridgeStep: string | undefined;
  const stepEvidence = new Set<string>();
  for (let i = 0; i < steps.length && i < options.maxHops; i++) {
    const sub = steps[i]!;
    const known = hops.map((h) => h.answer).filter((a) => a !== 'unknown');
    const isBridge = sub === bridgeStep;
    // The bridge step is itself made of the findings: it is searched on its own.
    const searchText = i === 0 || known.length === 0 || isBridge ? sub : `${sub}\n\nKnown: ${known.join(' | ')}`;
    // The bridge step looks past the evidence it was made from.
    const found = isBridge
      ? (await baseRanked(options.baseRanking, searchText, index, k + evidenceSoFar.length))
          .filter((f) => !evidenceSoFar.some((e) => e.unit.id === f.unit.id))
          .slice(0, k)
      : await baseRanked(options.baseRanking, searchText, index, k);
    const rel = normalised(found);
    found.forEach((f, j) => {
      const prev = best.get(f.unit.id);
      if (!prev) best.set(f.unit.id, { unit: f.unit, score: f.score, relevance: rel[j]!, firstSeen: seen++ });
      else {
        prev.score = Math.max(prev.score, f.score);
        prev.relevance = Math.max(prev.relevance, rel[j]!);
      }
    });
    const evidence = found.slice(0, options.evidencePerHop);
    evidenceSoFar.push(...evidence);
    if (!isBridge) for (const e of evidence) stepEvidence.add(e.unit.sessionId);
    const answer = await hopAnswer(sub, evidence, options, ctx);
    hops.push({ subQuestion: sub, searchText, found: found.map((f) => f.unit.id), answer });
    if (i === 1 && notes.decomposition !== 'llm' && options.maxHops > 2) {
      const bridge = bridgeWords(query.text, evidenceSoFar, index.units);
      if (bridge.length > 0) {
        bridgeStep = bridge.join(' ');
        steps = [...steps.slice(0, 2), bridgeStep, ...steps.slice(2)];
        notes.bridge = bridge;
      }
    }
  }
  return { best, hops, stepEvidence };
}

/** A step's intermediate answer: the LLM's from the step's evidence (`mode: llm`), else the extractive one. */
async function hopAnswer(sub: string, evidence: ScoredUnit[], options: MultiHopOptions, ctx: Ctx): Promise<string> {
  if (options.mode !== 'llm') return extractiveAnswer(sub, evidence);
  const reply = await askText(
    strategyClient(ctx, 'multi-hop'),
    ctx,
    'strategy.multi-hop.answer',
    intermediatePrompt(sub, evidence),
  );
  return reply || 'unknown';
}

/** The k units returned from everything found: by MMR over relevance (`merge: mmr`), else by best score. */
async function mergeFound(
  best: Map<string, Found>,
  index: MemoryIndex,
  k: number,
  options: MultiHopOptions,
): Promise<Found[]> {
  const pool = [...best.values()].sort(
    (a, b) => b.relevance - a.relevance || b.score - a.score || a.firstSeen - b.firstSeen,
  );
  if (options.merge !== 'mmr')
    return [...pool].sort((a, b) => b.score - a.score || a.firstSeen - b.firstSeen).slice(0, k);
  const vectors = await index.vectors();
  const position = new Map(index.units.map((u, i) => [u.id, i]));
  const items = pool.map((p) => ({
    sessionId: p.unit.sessionId,
    relevance: p.relevance,
    vector: vectors[position.get(p.unit.id) ?? -1] ?? new Float32Array(index.embedder.dim),
  }));
  return mmrOrder(items, k, options.mmrLambda, index.spec.granularity !== 'session').map((i) => pool[i]!);
}

export function createMultiHop(options: MultiHopOptions): Strategy {
  return {
    name: 'multi-hop',
    mode: options.mode,
    // Its steps rank by entities (unit keys), answer from the evidence's sentences and bridge by names.
    memorise: (index) => memoriseUnitKeys(index.units, { sentences: true, names: true }),
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      const notes: RetrievalNotes = { strategy: 'multi-hop', contextOrder: 'rank' };
      const steps = await decompose(query, options, ctx, notes);
      const { best, hops, stepEvidence } = await runHops(query, index, k, ctx, options, steps, notes);
      const chosen = await mergeFound(best, index, k, options);
      const units = monotoneScores(
        chosen.map(({ unit, relevance, score }) => ({ unit, score: options.merge === 'mmr' ? relevance : score })),
      );
      const trailer = ['Intermediate reasoning:', ...hops.map((h, i) => `${i + 1}. ${h.subQuestion} → ${h.answer}`)];
      if (isAggregation(query.text)) trailer.push(...aggregationLines(units, query.text, stepEvidence));
      notes.hops = hops.map(({ subQuestion, answer, found }) => ({ subQuestion, answer, found: found.length }));
      notes.merge = options.merge;
      notes.trailer = trailer;
      return { units, noMemory: false, context: renderContext(units, 'rank', { trailer }), notes };
    },
  };
}
