/**
 * A claim that reads a `comparisons` row: finding the row of a pair, and turning it into a tested sample (its
 * numbers as stored; the paired values only for the MDE and the cell flags), so a verdict and its comparison row
 * carry the same estimate, CI and p-value.
 */
import type { ComparisonRow } from '../stats/results/index.ts';
import type { ClaimContext } from './context.ts';
import type { Headline, TestedPairs } from './inputs.ts';

/** A comparisons row as a tested sample (its numbers; the pairs only for the MDE). */
export function testedFromRow(ctx: ClaimContext, row: ComparisonRow, h: Headline, type: string): TestedPairs | null {
  const pairs = ctx.scores.pairs(
    { runId: row.run, method: row.methodA },
    { runId: row.runB, method: row.methodB },
    row.dataset,
    h,
    type,
  );
  if (pairs.ids.length === 0) return null;
  const clusters =
    row.bootstrap === 'conversation' ? pairs.ids.map((id) => /^(.+):q\d+$/.exec(id)?.[1] ?? id) : undefined;
  return {
    ...pairs,
    clusters,
    units: clusters ? new Set(clusters).size : pairs.ids.length,
    bootstrap: row.bootstrap,
    result: {
      nPairs: row.nPairs,
      meanDiff: row.meanDiff,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
      ciMethod: row.ciMethod,
      pValue: row.pValue,
      test: row.test,
    },
  };
}

export function findComparison(
  ctx: ClaimContext,
  q: { run: string; runB: string; dataset: string; methodA: string; methodB: string; type: string },
  h: Headline,
): ComparisonRow | undefined {
  return ctx.input.comparisons.find(
    (c) =>
      c.run === q.run &&
      c.runB === q.runB &&
      c.dataset === q.dataset &&
      c.methodA === q.methodA &&
      c.methodB === q.methodB &&
      c.adaptType === q.type &&
      c.metric === h.metric &&
      c.level === h.level &&
      c.k === h.k,
  );
}
