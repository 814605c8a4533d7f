/**
 * Strategy 3, knowledge update (plan §2.3 策略 3): retrieve 2K candidates, cluster same-topic units by embedding
 * similarity (plan: threshold 0.85), and in each cluster with several units keep the newest when it supersedes the
 * oldest — decided by the LLM (`mode: llm`, the plan's `check_update_relation` prompt) or, offline, by the
 * newer-wins rule (a newer same-topic unit always supersedes) — annotated "(updated on …; previously: …)".
 *
 * Clustering is leader clustering in rank order (each candidate joins the first cluster whose leader — its best
 * ranked member — is similar enough, else starts one): deterministic, one pass, and the plan does not fix the
 * algorithm. A merged cluster is ranked by its best member's score (the leader's), so the list stays best first with
 * non-increasing scores; the kept unit is the newest member.
 *
 * "Similar enough": the plan's cosine ≥ 0.85 (`similarity: cosine`) assumes one embedder's scale. With the offline
 * SIF embedder, session vectors of one haystack have a median pairwise cosine of ~0.9 (measured on LongMemEval S),
 * so 0.85 puts every candidate in one cluster and the strategy returns a single unit. The default is therefore
 * scale-free (`similarity: quantile`): a pair is same-topic when its cosine is at least the `pairQuantile` (default
 * 0.99) quantile of all pairwise cosines of the haystack — "among the 1 % most similar pairs of this memory". A
 * mean + z·sd rule was rejected: the cosine distribution is bounded at 1 and skewed (SIF sessions: mean ≈ 0.88,
 * sd ≈ 0.06), so mean + 2–3 sd exceeds 1 and nothing ever merges. Not tuned on any question.
 *
 * Budget: the plan returns the resolved list only (fewer than K units once clusters merge). With `padToK` (default
 * true) the superseded units follow the resolved ones, ranked by their own score and annotated "(superseded on …)",
 * so every method gets the same budget k and the reader sees old values flagged as outdated.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { MemoryUnit, Query, Retrieval, ScoredUnit } from '../core/types.ts';
import { askYesNo, strategyClient } from './llm-step.ts';
import { dayOf, monotoneScores, renderContext } from './render.ts';
import type { Strategy } from '../core/interfaces.ts';

export const UpdateOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** `cosine`: cosine ≥ clusterThreshold (the plan's rule); `quantile`: cosine ≥ the pairQuantile quantile of the
     * haystack's pairwise cosines (scale-free; see header). */
    similarity: z.enum(['quantile', 'cosine']).default('quantile'),
    /** Plan: similarity_threshold=0.85 (used with `similarity: cosine`). */
    clusterThreshold: z.number().min(-1).max(1).default(0.85),
    pairQuantile: z.number().min(0).max(1).default(0.99),
    /** Append superseded units after the resolved ones so the list reaches k (see header). */
    padToK: z.boolean().default(true),
    candidateFactor: z.number().min(1).default(2),
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

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function snippet(text: string, n: number): string {
  const t = text.replace(/\s+/gu, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n)}…`;
}

/** Sorted pairwise cosines of the haystack's unit vectors (cached per vector array; a turn-level LoCoMo haystack
 * has ~180k pairs, computed once and shared by its ~200 questions). Above MAX_PAIRS pairs (LongMemEval M at turn
 * level has ~10⁸) a fixed-seed uniform sample of MAX_PAIRS pairs estimates the quantile instead, deterministically. */
const pairCache = new WeakMap<readonly Float32Array[], Float64Array>();
export const MAX_PAIRS = 1_000_000;
export function pairwiseCosines(vectors: readonly Float32Array[], maxPairs = MAX_PAIRS): Float64Array {
  const hit = maxPairs === MAX_PAIRS ? pairCache.get(vectors) : undefined;
  if (hit) return hit;
  const n = vectors.length;
  const total = (n * (n - 1)) / 2;
  let out: Float64Array;
  if (total <= maxPairs) {
    out = new Float64Array(total);
    let p = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out[p++] = dot(vectors[i]!, vectors[j]!);
  } else {
    out = new Float64Array(maxPairs);
    const rng = xoroshiro128plus(0);
    for (let p = 0; p < maxPairs; p++) {
      const i = uniformInt(rng, 0, n - 1);
      let j = uniformInt(rng, 0, n - 2);
      if (j >= i) j++;
      out[p] = dot(vectors[i]!, vectors[j]!);
    }
  }
  out.sort();
  if (maxPairs === MAX_PAIRS) pairCache.set(vectors, out);
  return out;
}

/** The q-quantile of sorted values, linear interpolation (numpy.quantile default); undefined when empty. */
export function sortedQuantile(sorted: Float64Array, q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Leader clustering of ranked candidates (see header); returns clusters of candidate positions, leader first. */
export function leaderClusters(vectors: readonly Float32Array[], threshold: number): number[][] {
  const clusters: number[][] = [];
  for (let i = 0; i < vectors.length; i++) {
    const home = clusters.find((c) => dot(vectors[c[0]!]!, vectors[i]!) >= threshold);
    if (home) home.push(i);
    else clusters.push([i]);
  }
  return clusters;
}

export function createUpdate(options: UpdateOptions): Strategy {
  return {
    name: 'update',
    mode: options.mode,
    async retrieve(query: Query, index: MemoryIndex, k: number, ctx: Ctx): Promise<Retrieval> {
      const candidates = await index.semantic(query.text, Math.ceil(options.candidateFactor * k));
      const all = await index.vectors();
      const position = new Map(index.units.map((u, i) => [u.id, i]));
      const vecs = candidates.map((c) => all[position.get(c.unit.id) ?? -1] ?? new Float32Array(index.embedder.dim));
      let threshold = options.clusterThreshold;
      if (options.similarity === 'quantile') {
        // A haystack of one unit has no pairs: nothing merges.
        threshold = sortedQuantile(pairwiseCosines(all), options.pairQuantile) ?? Infinity;
      }
      const clusters = leaderClusters(vecs, threshold);

      const out: (ScoredUnit & { rank: number })[] = [];
      const superseded: (ScoredUnit & { rank: number; by: string })[] = [];
      const annotations: Record<string, string> = {};
      const merged: { kept: string; superseded: string[]; decidedBy: 'llm' | 'newer-wins' }[] = [];
      const notMerged: string[][] = [];
      for (const cluster of clusters) {
        const members = cluster.map((i) => ({ ...candidates[i]!, rank: i }));
        if (members.length === 1) {
          out.push(members[0]!);
          continue;
        }
        // Newest first; equal times keep rank order.
        const byTime = [...members].sort((a, b) => (a.unit.at > b.unit.at ? -1 : a.unit.at < b.unit.at ? 1 : a.rank - b.rank));
        const newest = byTime[0]!;
        const oldest = byTime[byTime.length - 1]!;
        const isUpdate =
          options.mode === 'llm'
            ? await askYesNo(strategyClient(ctx, 'update'), ctx, 'strategy.update.check', updatePrompt(newest.unit, oldest.unit))
            : true;
        if (isUpdate) {
          out.push({ unit: newest.unit, score: members[0]!.score, rank: members[0]!.rank });
          annotations[newest.unit.id] =
            `(updated on ${dayOf(newest.unit.at)}; previously [${dayOf(oldest.unit.at)}]: ${snippet(oldest.unit.text, options.previousChars)})`;
          merged.push({ kept: newest.unit.id, superseded: byTime.slice(1).map((m) => m.unit.id), decidedBy: options.mode === 'llm' ? 'llm' : 'newer-wins' });
          for (const m of byTime.slice(1)) superseded.push({ ...m, by: dayOf(newest.unit.at) });
        } else {
          out.push(...members);
          notMerged.push(members.map((m) => m.unit.id));
        }
      }
      out.sort((a, b) => b.score - a.score || a.rank - b.rank);
      const resolved = out.slice(0, k).map(({ unit, score }) => ({ unit, score }));
      let units = resolved;
      if (options.padToK && resolved.length < k && superseded.length > 0) {
        superseded.sort((a, b) => b.score - a.score || a.rank - b.rank);
        const pad = superseded.slice(0, k - resolved.length);
        for (const p of pad) annotations[p.unit.id] = `(superseded on ${p.by})`;
        units = monotoneScores([...resolved, ...pad.map(({ unit, score }) => ({ unit, score }))]);
      }
      const keptAnnotations = Object.fromEntries(units.filter((u) => annotations[u.unit.id]).map((u) => [u.unit.id, annotations[u.unit.id]!]));
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
          clusterThreshold: Number.isFinite(threshold) ? threshold : null,
          padded: units.length - resolved.length,
          annotations: keptAnnotations,
        },
      };
    },
  };
}
