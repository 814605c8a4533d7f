/**
 * Generative Agents' retrieval score (Park et al. 2023, §4.1; the Generative Agents source design "记忆检索得分计算" and
 * `MemoryStream.retrieve_memories`):
 *
 *   recency_i   = decay_factor ^ (hours since memory i was last accessed, at the question's date)
 *   relevance_i = cosine(query embedding, memory embedding)
 *   score_i     = α_recency · minmax(recency)_i + α_importance · importance_i + α_relevance · minmax(relevance)_i
 *
 * then the optional filter statement (the spec's pandas-style `'relevance > 0.5'`, read against the normalised
 * columns the spec's DataFrame holds), sort by score, top k.
 *
 * Deviations, each documented in README.md: the spec's code raises decay_factor to elapsed *seconds*; the paper and
 * the issue decay per *hour* (0.99 per second would zero every memory older than a few minutes). A memory whose last
 * access lies after the question's date (not in the benchmark data) counts as just accessed (elapsed 0). Min-max of
 * equal values (one memory, or all accessed at the same hour) is 0 for every memory instead of the spec's division
 * by zero. Recency is computed relative to the most recent memory (decay^(h − h_min)), which min-max leaves
 * unchanged, so memories years old do not underflow to exactly 0 before normalising.
 */
import { z } from 'zod';
import { minMax } from '../llm-mode.ts';

export const HOUR_MS = 3_600_000;

/** decay^(elapsed hours), elapsed clamped at 0. */
export function recency(elapsedHours: number, decayFactor: number): number {
  return decayFactor ** Math.max(0, elapsedHours);
}

/**
 * Recency of memories last accessed at `lastAccessMs`, seen at `nowMs`, divided by the most recent one's
 * (decay^(h − h_min)); min-max normalising it gives exactly the normalised decay^h.
 */
export function relativeRecency(lastAccessMs: readonly number[], nowMs: number, decayFactor: number): number[] {
  const hours = lastAccessMs.map((t) => Math.max(0, (nowMs - t) / HOUR_MS));
  let hMin = Infinity;
  for (const h of hours) hMin = Math.min(hMin, h);
  return hours.map((h) => recency(h - hMin, decayFactor));
}

export interface Weights {
  recency: number;
  importance: number;
  relevance: number;
}

export interface ScoredRow {
  recency: number;
  importance: number;
  relevance: number;
  score: number;
}

/** The spec's rows: normalised recency and relevance, raw importance (already 0.1–1.0), weighted sum. */
export function scoreRows(
  rec: ArrayLike<number>,
  importance: ArrayLike<number>,
  relevance: ArrayLike<number>,
  w: Weights,
): ScoredRow[] {
  const rn = minMax(rec);
  const vn = minMax(relevance);
  return Array.from({ length: rn.length }, (_, i) => {
    const row = { recency: rn[i]!, importance: importance[i]!, relevance: vn[i]! };
    return { ...row, score: w.recency * row.recency + w.importance * row.importance + w.relevance * row.relevance };
  });
}

/** Row indices best first (ties: earlier memory first), after the filter, at most `k`. */
export function rankRows(rows: readonly ScoredRow[], k: number, filter?: (row: ScoredRow) => boolean): number[] {
  const idx = rows.map((_, i) => i).filter((i) => !filter || filter(rows[i]!));
  idx.sort((a, b) => rows[b]!.score - rows[a]!.score || a - b);
  return idx.slice(0, Math.max(0, k));
}

const COMPARISON = /^\s*(recency|importance|relevance|score)\s*(>=|<=|==|!=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$/;

/**
 * The filter statement: comparisons of a column with a number joined by `and` / `&` (the subset of pandas
 * `DataFrame.query` the spec uses, e.g. `relevance > 0.5`). Returns the predicate or an error message.
 */
export function parseFilterStatement(
  statement: string,
): { ok: true; test: (row: ScoredRow) => boolean } | { ok: false; error: string } {
  const parts = statement.split(/\s+and\s+|\s*&\s*/u);
  const tests: ((row: ScoredRow) => boolean)[] = [];
  for (const part of parts) {
    const m = COMPARISON.exec(part);
    if (!m)
      return {
        ok: false,
        error: `cannot read "${part.trim()}" (expected e.g. "relevance > 0.5"; columns recency, importance, relevance, score)`,
      };
    const col = m[1] as keyof ScoredRow;
    const op = m[2]!;
    const v = Number(m[3]);
    tests.push((row) => {
      const x = row[col];
      return op === '>'
        ? x > v
        : op === '>='
          ? x >= v
          : op === '<'
            ? x < v
            : op === '<='
              ? x <= v
              : op === '=='
                ? x === v
                : x !== v;
    });
  }
  return { ok: true, test: (row) => tests.every((t) => t(row)) };
}

/** A filter statement option, checked when the config is read. */
export const FilterStatementSchema = z.string().superRefine((s, c) => {
  const parsed = parseFilterStatement(s);
  if (!parsed.ok) c.addIssue({ code: 'custom', message: parsed.error });
});
