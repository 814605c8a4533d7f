/**
 * Strategy 3, knowledge update (plan §2.3 策略 3): retrieve 2K candidates, cluster same-topic units by embedding
 * similarity (plan: threshold 0.85), and in each cluster with several units keep the newest when it supersedes the
 * oldest — decided by the LLM (`mode: llm`, the plan's `check_update_relation` prompt) or, offline, by the
 * newer-wins rule (a newer same-topic unit always supersedes) — annotated "(updated on …; previously: …)".
 *
 * Clustering is leader clustering in rank order (each candidate joins the first cluster whose leader — its best
 * ranked member — has cosine ≥ threshold, else starts one): deterministic, one pass, and the plan does not fix the
 * algorithm. A merged cluster is ranked by its best member's score (the leader's), so the list stays best first with
 * non-increasing scores; the kept unit is the newest member.
 */
import { z } from 'zod';
import type { Ctx, MemoryIndex } from '../core/interfaces.ts';
import type { MemoryUnit, Query, Retrieval, ScoredUnit } from '../core/types.ts';
import { askYesNo, strategyClient } from './llm-step.ts';
import { dayOf, renderContext } from './render.ts';
import type { Strategy } from './strategy.ts';

export const UpdateOptionsSchema = z
  .object({
    mode: z.enum(['llm', 'offline']).default('offline'),
    /** Plan: similarity_threshold=0.85. Cosine scales differ by embedder; set per experiment if needed. */
    clusterThreshold: z.number().min(-1).max(1).default(0.85),
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
      const clusters = leaderClusters(vecs, options.clusterThreshold);

      const out: (ScoredUnit & { rank: number })[] = [];
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
        } else {
          out.push(...members);
          notMerged.push(members.map((m) => m.unit.id));
        }
      }
      out.sort((a, b) => b.score - a.score || a.rank - b.rank);
      const units = out.slice(0, k).map(({ unit, score }) => ({ unit, score }));
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
          clusterThreshold: options.clusterThreshold,
          annotations: keptAnnotations,
        },
      };
    },
  };
}
