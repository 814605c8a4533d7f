/**
 * Strategy 3, knowledge update (plan §2.3 策略 3): retrieve 2K candidates, group the memories of the same topic, and
 * in each group with several memories keep the newest when it supersedes the oldest — decided by the LLM
 * (`mode: llm`, the plan's `check_update_relation` prompt) or, offline, by the newer-wins rule — annotated
 * "(updated on …; previously [day]: …)".
 *
 * Same topic (`similarity`): `topic` (default; same-topic.ts) — the question's attribute family shared by both
 * memories, or a shared question entity with a change cue and an above-median cosine, never two memories of one
 * session or day; `cosine` (the plan's 0.85 threshold) and `quantile` (update-similarity.ts) remain selectable.
 * Groups: with `topic`, the connected components of the same-topic links, cut to their `maxGroup` best-ranked
 * sessions (default 2: an update relates an old and a new value, as the plan's check compares newest and oldest; an
 * unbounded group lets an unrelated newer session become "current" — chosen on calibration questions only,
 * experiments/update-group-size-calibration.yaml); with `cosine`/`quantile`, leader clusters in rank order.
 *
 * Candidates: the entity-ranked first stage (factual.ts; `baseRanking: semantic` = the plan's bare cosine), plus the
 * words of an attribute family the question names, so a new value sharing no word with the question is a candidate.
 *
 * Order and budget: a resolved group takes the place of its best-ranked member, the current value first. With
 * `padToK` (default) the superseded memories are kept, flagged "(superseded on …)", right after their current value
 * (`superseded: follow`) or after every resolved memory (`superseded: end`), so every method gets the same budget k.
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex, Strategy } from '../core/interfaces.ts';
import type { MemoryUnit, Query, Retrieval, ScoredUnit } from '../core/types.ts';
import { familiesOf, familyWords } from './attributes.ts';
import { baseRanked, BaseRankingSchema, rerankByEntities } from './factual.ts';
import { askYesNo, strategyClient } from './llm-step.ts';
import { dayOf, monotoneScores, renderContext } from './render.ts';
import { asksCurrent, sameTopic, topicUnit, type TopicReason } from './same-topic.ts';
import { extractEntities, memoriseUnitKeys, textKeys } from './text.ts';
import { dot } from '../index/vectors.ts';
import { leaderClusters, pairwiseCosines, sortedQuantile } from './update-similarity.ts';

export { leaderClusters, MAX_PAIRS, pairwiseCosines, sortedQuantile } from './update-similarity.ts';

export const UpdateOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** `topic`: same-topic.ts (default); `cosine`: cosine ≥ clusterThreshold (the plan's rule); `quantile`: cosine ≥
     * the pairQuantile quantile of the haystack's pairwise cosines (see header). */
    similarity: z.enum(['topic', 'quantile', 'cosine']).default('topic'),
    /** Plan: similarity_threshold=0.85 (used with `similarity: cosine`). */
    clusterThreshold: z.number().min(-1).max(1).default(0.85),
    pairQuantile: z.number().min(0).max(1).default(0.99),
    /** Most values (sessions) in one topic group (`topic`): its best-ranked ones (see header). */
    maxGroup: z.number().int().min(2).default(2),
    /** Keep superseded units (flagged) so the list reaches k (see header). */
    padToK: z.boolean().default(true),
    /** Where kept superseded units go: right after their current value, or after every resolved unit. */
    superseded: z.enum(['follow', 'end']).default('follow'),
    candidateFactor: z.number().min(1).default(2),
    baseRanking: BaseRankingSchema.default('entity'),
    /** Characters of the superseded unit quoted in the annotation. */
    previousChars: z.number().int().positive().default(300),
  })
  .strict();
export type UpdateOptions = z.output<typeof UpdateOptionsSchema>;

export function updatePrompt(newer: MemoryUnit, older: MemoryUnit): string {
  return (
    'Do the following two memories describe the same piece of information, with the newer one updating the older ' +
    '(a new value of the same attribute)?\n\n' +
    `Older memory [${dayOf(older.at)}]: ${older.text}\n` +
    `Newer memory [${dayOf(newer.at)}]: ${newer.text}\n\n` +
    'Answer YES if the newer memory updates the older one, NO if they are different information.'
  );
}

function snippet(text: string, n: number): string {
  const t = text.replace(/\s+/gu, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n)}…`;
}

type Ranked = ScoredUnit & { rank: number };
const byTimeDesc = (a: Ranked, b: Ranked): number =>
  a.unit.at > b.unit.at ? -1 : a.unit.at < b.unit.at ? 1 : a.rank - b.rank;

/** Candidates: the question's ranking, plus the attribute family's own search when the question names one. */
async function candidatesFor(
  query: Query,
  index: MemoryIndex,
  k: number,
  options: UpdateOptions,
): Promise<{ list: Ranked[]; families: Set<string> }> {
  const list: ScoredUnit[] = await baseRanked(
    options.baseRanking,
    query.text,
    index,
    Math.ceil(options.candidateFactor * k),
  );
  const families = options.similarity === 'topic' ? familiesOf(textKeys(query.text)) : new Set<string>();
  if (families.size > 0) {
    const seen = new Set(list.map((c) => c.unit.id));
    const extra = (await index.semantic(familyWords(families), k)).filter((c) => !seen.has(c.unit.id));
    if (extra.length > 0) {
      // Score the family's finds against the question itself, so all candidates share one scale.
      const scores = await index.semanticScores(query.text);
      const position = new Map(index.units.map((u, i) => [u.id, i]));
      const rescored = extra.map((c) => ({ unit: c.unit, score: scores[position.get(c.unit.id) ?? -1] ?? 0 }));
      list.push(...rerankByEntities(rescored, extractEntities(query.text), 0.3));
    }
  }
  list.sort((a, b) => b.score - a.score);
  return { list: list.map((c, rank) => ({ ...c, rank })), families };
}

/**
 * Same-topic groups (`similarity: topic`): the connected components of the same-topic links between candidates,
 * each listed in rank order (leader = best ranked), cut to the units of their `maxGroup` best-ranked sessions (the
 * rest stand alone; see header). Also the reason of each link, keyed `older id|newer id` in rank order.
 */
function topicClusters(
  query: Query,
  candidates: Ranked[],
  vecs: Float32Array[],
  families: Set<string>,
  maxGroup: number,
): { clusters: number[][]; reasons: Record<string, TopicReason> } {
  const reasons: Record<string, TopicReason> = {};
  const topics = candidates.map((c) => topicUnit(c.unit));
  const pairCos: number[] = [];
  for (let i = 0; i < vecs.length; i++) for (let j = i + 1; j < vecs.length; j++) pairCos.push(dot(vecs[i]!, vecs[j]!));
  const medianCosine = sortedQuantile(Float64Array.from(pairCos).sort(), 0.5) ?? Infinity;
  const topicCtx = {
    asksCurrent: asksCurrent(query.text),
    queryFamilies: families,
    queryEntities: extractEntities(query.text),
    medianCosine,
  };
  const parent = candidates.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      const [older, newer] = candidates[i]!.unit.at <= candidates[j]!.unit.at ? [i, j] : [j, i];
      const reason = sameTopic(topics[older]!, topics[newer]!, dot(vecs[i]!, vecs[j]!), topicCtx);
      if (!reason) continue;
      reasons[`${candidates[i]!.unit.id}|${candidates[j]!.unit.id}`] = reason;
      parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < candidates.length; i++) groups.set(find(i), [...(groups.get(find(i)) ?? []), i]);
  // Cut by values: the units of the group's maxGroup best-ranked sessions.
  const cut = (g: number[]): number[][] => {
    const keep = new Set<string>();
    for (const i of g) if (keep.size < maxGroup) keep.add(candidates[i]!.unit.sessionId);
    const inside = g.filter((i) => keep.has(candidates[i]!.unit.sessionId));
    return [inside, ...g.filter((i) => !keep.has(candidates[i]!.unit.sessionId)).map((i) => [i])];
  };
  return { clusters: [...groups.values()].flatMap(cut).sort((a, b) => a[0]! - b[0]!), reasons };
}

interface Merge {
  kept: string;
  superseded: string[];
  decidedBy: 'llm' | 'newer-wins';
  reason?: TopicReason;
}

interface Resolved {
  /** Blocks in the order of their best member; a resolved group is one block (current value, then superseded). */
  blocks: { key: number; units: Ranked[] }[];
  /** Superseded units placed after every resolved unit (`superseded: end`). */
  late: Ranked[];
  annotations: Record<string, string>;
  merged: Merge[];
  notMerged: string[][];
}

/** Resolves each cluster (its members in rank order): an update keeps the newest value first, else each stands alone. */
async function resolveClusters(
  clusters: Ranked[][],
  reasons: Record<string, TopicReason>,
  options: UpdateOptions,
  ctx: Ctx,
): Promise<Resolved> {
  const out: Resolved = { blocks: [], late: [], annotations: {}, merged: [], notMerged: [] };
  for (const members of clusters) {
    const byTime = [...members].sort(byTimeDesc);
    const newest = byTime[0]!;
    // The oldest value: the oldest unit of another session than the newest (units of one session are one value).
    const oldest =
      [...byTime].reverse().find((m) => m.unit.sessionId !== newest.unit.sessionId) ?? byTime[byTime.length - 1]!;
    if (!(await isUpdate(members, newest, oldest, options, ctx))) {
      for (const m of members) out.blocks.push({ key: m.rank, units: [m] });
      if (members.length > 1) out.notMerged.push(members.map((m) => m.unit.id));
      continue;
    }
    const leader = members[0]!;
    // Units of the newest unit's own session are the current value too (a turn does not supersede its session).
    const current = byTime.filter((m) => m.unit.sessionId === newest.unit.sessionId);
    const older = byTime.filter((m) => m.unit.sessionId !== newest.unit.sessionId);
    out.annotations[newest.unit.id] =
      `(updated on ${dayOf(newest.unit.at)}; previously [${dayOf(oldest.unit.at)}]: ${snippet(oldest.unit.text, options.previousChars)})`;
    const reason = members
      .flatMap((a) => members.map((b) => reasons[`${a.unit.id}|${b.unit.id}`]))
      .find((r) => r !== undefined);
    out.merged.push({
      kept: newest.unit.id,
      superseded: older.map((m) => m.unit.id),
      decidedBy: options.mode === 'llm' ? 'llm' : 'newer-wins',
      ...(reason ? { reason } : {}),
    });
    for (const m of older) out.annotations[m.unit.id] = `(superseded on ${dayOf(newest.unit.at)})`;
    const block: Ranked[] = [{ ...newest, score: leader.score }, ...current.slice(1).sort((a, b) => a.rank - b.rank)];
    if (options.padToK && options.superseded === 'follow') block.push(...older);
    else if (options.padToK) out.late.push(...older);
    out.blocks.push({ key: leader.rank, units: block });
  }
  return out;
}

/** Whether a cluster is an update: two values (sessions and days) and, with `mode: llm`, the model says the newest updates the oldest. */
async function isUpdate(
  members: Ranked[],
  newest: Ranked,
  oldest: Ranked,
  options: UpdateOptions,
  ctx: Ctx,
): Promise<boolean> {
  const distinctValues =
    new Set(members.map((m) => m.unit.sessionId)).size > 1 && new Set(members.map((m) => dayOf(m.unit.at))).size > 1;
  if (!distinctValues) return false;
  if (options.mode !== 'llm') return true;
  return askYesNo(strategyClient(ctx, 'update'), ctx, 'strategy.update.check', updatePrompt(newest.unit, oldest.unit));
}

export function createUpdate(options: UpdateOptions): Strategy {
  return {
    name: 'update',
    mode: options.mode,
    memorise(index) {
      memoriseUnitKeys(index.units);
      if (options.similarity === 'topic') for (const u of index.units) topicUnit(u);
    },
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      const { list: candidates, families } = await candidatesFor(query, index, k, options);
      const all = await index.vectors();
      const position = new Map(index.units.map((u, i) => [u.id, i]));
      const vecs = candidates.map((c) => all[position.get(c.unit.id) ?? -1] ?? new Float32Array(index.embedder.dim));

      let clusters: number[][];
      let threshold: number | null = null;
      let reasons: Record<string, TopicReason> = {};
      if (options.similarity === 'topic') {
        ({ clusters, reasons } = topicClusters(query, candidates, vecs, families, options.maxGroup));
      } else {
        const t =
          options.similarity === 'quantile'
            ? (sortedQuantile(pairwiseCosines(all), options.pairQuantile) ?? Infinity)
            : options.clusterThreshold;
        threshold = Number.isFinite(t) ? t : null;
        clusters = leaderClusters(vecs, t);
      }

      const { blocks, late, annotations, merged, notMerged } = await resolveClusters(
        clusters.map((cluster) => cluster.map((i) => candidates[i]!)),
        reasons,
        options,
        ctx,
      );
      blocks.sort((a, b) => a.key - b.key);
      late.sort((a, b) => a.rank - b.rank);
      const ordered = [...blocks.flatMap((b) => b.units), ...late].slice(0, k);
      const units = monotoneScores(ordered.map(({ unit, score }) => ({ unit, score })));
      const keptAnnotations = Object.fromEntries(
        units.filter((u) => annotations[u.unit.id]).map((u) => [u.unit.id, annotations[u.unit.id]!]),
      );
      return {
        units,
        noMemory: false,
        context: renderContext(units, 'rank', { annotations: keptAnnotations }),
        notes: {
          strategy: 'update',
          contextOrder: 'rank',
          candidates: candidates.length,
          clusters: clusters.length,
          merged,
          notMerged,
          similarity: options.similarity,
          queryFamilies: [...families],
          clusterThreshold: threshold,
          annotations: keptAnnotations,
        },
      };
    },
  };
}
