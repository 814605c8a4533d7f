/**
 * Building a haystack's memory stream once (the source design's `MemoryStream`, `generate_insight`, `generate_reflection`):
 * every unit becomes an observation (created and last accessed at its session's time) with an importance score
 * (LLM rating /10, or the offline constant) and its embedding; then, in time order, after every `reflectionWindow`
 * new observations whose window's importance sums to at least `reflectionThreshold`, a reflection: 3 high-level
 * questions about the recent memories, for each the memories retrieved with `relevance > 0.5`, insights citing them
 * by index, condensed to at most 5; each insight becomes a reflection memory pointing at its evidence (and through
 * it at the evidence's units). Retrievals made while reflecting update last-access times, as the spec's
 * `retrieve_memories` does.
 */
import type { Ctx, MemoryIndex } from '../../src/core/interfaces.ts';
import type { MemoryUnit } from '../../src/core/types.ts';
import type { LlmRole } from '../../src/core/llm.ts';
import { chatText } from '../llm-mode.ts';
import { dot } from '../../src/index/vectors.ts';
import {
  condenseMessages,
  formatInsights,
  importanceMessages,
  insightMessages,
  parseImportance,
  parseInsights,
  parseQuestions,
  questionsMessages,
  type Insight,
} from './prompts.ts';
import { parseFilterStatement, rankRows, relativeRecency, scoreRows, type Weights } from './scoring.ts';

export interface StreamMemory {
  id: string;
  kind: 'observation' | 'reflection';
  description: string;
  createdMs: number;
  lastAccessMs: number;
  importance: number;
  vector: Float32Array;
  /** Units this memory comes from: its own unit, or (reflection) its evidence's units in pointer order. */
  unitIds: string[];
  /** Reflection: stream positions of its evidence. */
  pointers?: number[];
}

export interface StreamSettings {
  role: LlmRole | undefined;
  weights: Weights;
  decayFactor: number;
  reflect: boolean;
  reflectionWindow: number;
  reflectionThreshold: number;
  reflectionFilter: string;
  offlineImportance: number;
  /** The stream's context_window_size: memories retrieved per reflection question (and per question). */
  k: number;
}

export interface MemoryStream {
  memories: StreamMemory[];
  stats: {
    observations: number;
    reflections: number;
    reflectionRounds: number;
    importanceFallbacks: number;
    droppedInsights: number;
    memoriseMs: number;
  };
}

const WHERE = 'method generative-agents';

/** For each reflection question, the memories it retrieves (their last access set to `now`), in order. */
async function retrieveForReflection(
  index: MemoryIndex,
  stream: StreamMemory[],
  questions: string[],
  now: number,
  s: StreamSettings,
  test: Parameters<typeof rankRows>[2],
): Promise<number[][]> {
  const shown: number[][] = [];
  for (const q of questions) {
    const [qv] = await index.embedder.embed([q]);
    const rows = scoreRows(
      relativeRecency(
        stream.map((m) => m.lastAccessMs),
        now,
        s.decayFactor,
      ),
      stream.map((m) => m.importance),
      stream.map((m) => dot(qv!, m.vector)),
      s.weights,
    );
    const picked = rankRows(rows, s.k, test);
    for (const p of picked) stream[p]!.lastAccessMs = now;
    shown.push(picked);
  }
  return shown;
}

/**
 * A reflection question's insights from the statements it showed (`idx`), condensed; each keeps only evidence
 * among those statements, and one citing none is dropped (counted in `stats.droppedInsights`).
 */
async function insightsFor(
  ctx: Ctx,
  role: NonNullable<StreamSettings['role']>,
  stream: StreamMemory[],
  q: string,
  idx: number[],
  stats: { droppedInsights: number },
): Promise<Insight[]> {
  if (idx.length === 0) return [];
  const lines = idx.map((p) => `${p}. ${stream[p]!.description}`).join('\n');
  const raw = parseInsights(await chatText(ctx, role, 'index:insights', insightMessages(lines, q), 500, WHERE));
  if (raw.length === 0) return [];
  const condensed = parseInsights(
    await chatText(ctx, role, 'index:condense-insights', condenseMessages(formatInsights(raw)), 500, WHERE),
  );
  const allowed = new Set(idx);
  const kept: Insight[] = [];
  for (const [text, ev] of condensed) {
    const valid = [...new Set(ev.filter((e) => allowed.has(e)))];
    if (valid.length === 0) stats.droppedInsights++;
    else kept.push([text, valid]);
  }
  return kept;
}

/** A unit as an observation, created and last accessed at its own time. */
function observation(u: MemoryUnit, t: number, importance: number, vector: Float32Array): StreamMemory {
  return {
    id: `o:${u.id}`,
    kind: 'observation',
    description: u.text,
    createdMs: t,
    lastAccessMs: t,
    importance,
    vector,
    unitIds: [u.id],
  };
}

export async function buildMemoryStream(index: MemoryIndex, ctx: Ctx, s: StreamSettings): Promise<MemoryStream> {
  const t0 = performance.now();
  const vectors = await index.vectors();
  const order = index.units.map((u, i) => ({ u, i, t: Date.parse(u.at) })).sort((a, b) => a.t - b.t || a.i - b.i);
  let importanceFallbacks = 0;
  const rate = async (text: string): Promise<number> => {
    if (s.role === undefined) return s.offlineImportance;
    const v = parseImportance(await chatText(ctx, s.role, 'index:importance', importanceMessages(text), 10, WHERE));
    if (v === undefined) importanceFallbacks++;
    return v ?? s.offlineImportance;
  };
  const importances = await Promise.all(order.map(({ u }) => rate(u.text)));
  const observations = order.map(({ u, i, t }, n) => observation(u, t, importances[n]!, vectors[i]!));
  const stats = {
    observations: observations.length,
    reflections: 0,
    reflectionRounds: 0,
    importanceFallbacks: 0,
    droppedInsights: 0,
    memoriseMs: 0,
  };
  const stream: StreamMemory[] = [];
  if (s.role === undefined || !s.reflect) {
    stream.push(...observations);
  } else {
    const role = s.role;
    const filter = parseFilterStatement(s.reflectionFilter);
    if (!filter.ok) throw new Error(`${WHERE}: reflectionFilter: ${filter.error}`);
    let since = 0;
    for (const obs of observations) {
      stream.push(obs);
      if (++since < s.reflectionWindow) continue;
      since = 0;
      const recent = stream.slice(-s.reflectionWindow);
      // the source design's reflection trigger (反思触发逻辑): no reflection while the recent importance sum is under the threshold.
      if (recent.reduce((a, m) => a + m.importance, 0) < s.reflectionThreshold) continue;
      stats.reflectionRounds++;
      const now = obs.createdMs;
      const statements = recent.map((m) => `${stream.indexOf(m)}. ${m.description}`).join('\n');
      const questions = parseQuestions(
        await chatText(ctx, role, 'index:reflection-questions', questionsMessages(statements), 300, WHERE),
      );
      // Retrieval per question, sequentially (each updates last-access times), then the LLM steps in parallel.
      const shown = await retrieveForReflection(index, stream, questions, now, s, filter.test);
      const perQuestion = await Promise.all(
        questions.map((q, qi) => insightsFor(ctx, role, stream, q, shown[qi]!, stats)),
      );
      const insights = perQuestion.flat();
      if (insights.length === 0) continue;
      const [imps, vecs] = await Promise.all([
        Promise.all(insights.map(([text]) => rate(text))),
        index.embedder.embed(insights.map(([text]) => text)),
      ]);
      insights.forEach(([text, pointers], n) => {
        const unitIds = [...new Set(pointers.flatMap((p) => stream[p]!.unitIds))];
        stream.push({
          id: `r:${stats.reflections++}`,
          kind: 'reflection',
          description: text,
          createdMs: now,
          lastAccessMs: now,
          importance: imps[n]!,
          vector: vecs[n]!,
          unitIds,
          pointers,
        });
      });
    }
  }
  stats.importanceFallbacks = importanceFallbacks;
  stats.memoriseMs = performance.now() - t0;
  return { memories: stream, stats };
}
