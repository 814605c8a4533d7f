/**
 * Experiment 3's comparisons with the baselines (also the beyond-benchmarks run's), per AdaptMR variant, dataset and
 * type — every baseline that ran, none selected:
 *   adaptmr-vs-baseline        one row per baseline, on every question both scored; target > 0. Against the run's
 *                              reference the test is its comparisons row (the one adaptmr-vs-unified reads);
 *   adaptmr-vs-all-baselines   the variant beats each baseline (intersection-union): reached only when every
 *                              adaptmr-vs-baseline row of the cell is; its p_holm is the largest of theirs; not met as
 *                              soon as one baseline's CI lies at or below 0; the row shows the closest baseline.
 * A baseline is a ranking method of the run that is not AdaptMR (`adaptmr`), not one of AdaptMR's own strategies (a
 * `strategy` method other than `unified`, e.g. over the hybrid first stage), has no gold-type routing, is not an
 * offline stand-in (`degraded`) and returned memory for some question; `plan.baselines` names them instead, and an
 * older file's `plan.strongest` is one of them. Stand-ins keep their own descriptive comparisons rows, in no family.
 */
import type { ClaimContext } from './context.ts';
import type { PendingVerdict } from './families.ts';
import { headlineText, testPairs, type Headline, type PlanRunInput } from './inputs.ts';
import { findComparison, testedFromRow } from './comparison-row.ts';
import { noCellVerdict } from './pending.ts';
import { ALPHA, points, type Verdict } from './rule.ts';

/** Whether a method of a run counts as a baseline on a dataset (see the header). */
export function isBaseline(ctx: ClaimContext, run: PlanRunInput, dataset: string, id: string): boolean {
  const m = run.methods.find((x) => x.id === id);
  const f = ctx.facts(run.runId, id);
  if (!m || !f) return false;
  const ownStrategy = m.method === 'strategy' && m.options.name !== 'unified';
  return (
    m.method !== 'adaptmr' &&
    !ownStrategy &&
    f.ranks &&
    !f.upperBound &&
    f.degraded === null &&
    !ctx.silent(run.runId, dataset, id)
  );
}

/** The baselines of a run on a dataset with scores at the headline, in config order. */
export function baselinesOf(ctx: ClaimContext, run: PlanRunInput, dataset: string, h: Headline): string[] {
  const declared = run.plan.baselines;
  const named = declared === undefined ? undefined : Array.isArray(declared) ? declared : declared[dataset];
  const strongest = typeof run.plan.strongest === 'string' ? run.plan.strongest : run.plan.strongest?.[dataset];
  const ids = named
    ? [...named]
    : run.methods.map((m) => m.id).filter((id) => isBaseline(ctx, run, dataset, id) || id === strongest);
  if (strongest && !ids.includes(strongest)) ids.push(strongest);
  return ids.filter((id) => ctx.scores.get(run.runId, dataset, id, h) !== undefined);
}

export interface BaselineCell {
  run: PlanRunInput;
  dataset: string;
  h: Headline;
  variant: string;
  type: string;
  family: string;
  /** The verdict row's fixed columns (experiment, dataset, metric, level, k). */
  base: Pick<PendingVerdict['row'], 'experiment' | 'dataset' | 'metric' | 'level' | 'k'>;
  /** The note an `all` row carries (types outside the five), or undefined. */
  note: string | undefined;
}

/** One adaptmr-vs-baseline row per baseline of the cell, then the adaptmr-vs-all-baselines row over them. */
export function baselineClaims(ctx: ClaimContext, cell: BaselineCell, baselines: readonly string[]): PendingVerdict[] {
  const { run, dataset, h, variant, type } = cell;
  const stats = ctx.stats(run.runId)!;
  const reference = stats.reference?.method;
  const rows: PendingVerdict[] = [];
  for (const b of baselines) {
    const row = { ...cell.base, claim: 'adaptmr-vs-baseline', methodA: variant, methodB: b, adaptType: type };
    const prefix = `vs the baseline ${ctx.label(run.runId, b)}, one of ${baselines.length} (${baselines.join(', ')}); all questions both scored${type === 'all' && cell.note ? `; ${cell.note}` : ''}`;
    const cmp =
      b === reference
        ? findComparison(ctx, { run: run.runId, runB: run.runId, dataset, methodA: variant, methodB: b, type }, h)
        : undefined;
    const tested = cmp
      ? testedFromRow(ctx, cmp, h, type)
      : testPairs(
          ctx.scores.pairs({ runId: run.runId, method: variant }, { runId: run.runId, method: b }, dataset, h, type),
          stats,
          ctx.plans,
          ctx.datasetIds(run.runId, dataset),
        );
    if (!tested) {
      rows.push(noCellVerdict(row, cell.family, `${prefix}: no cell at ${headlineText(h)}`));
      continue;
    }
    const r = tested.result;
    rows.push({
      row: { ...row, n: tested.ids.length, estimate: r.meanDiff, ciLow: r.ciLow, ciHigh: r.ciHigh, pValue: r.pValue },
      family: cmp ? cmp.family : cell.family,
      ...(cmp ? { comparison: cmp } : {}),
      tested,
      pValue: r.pValue,
      claim: { direction: 'greater', target: 0 },
      prefix,
    });
  }
  const tested = rows.filter((p) => p.tested);
  if (tested.length === 0) return rows;
  const closest = tested.reduce((a, b) => (b.row.estimate! < a.row.estimate! ? b : a));
  const allAbove = tested.length === rows.length && tested.every((p) => p.row.ciLow! > 0);
  const anyBelow = tested.find((p) => p.row.ciHigh! <= 0);
  rows.push({
    row: { ...closest.row, claim: 'adaptmr-vs-all-baselines', pValue: Math.max(...tested.map((p) => p.row.pValue!)) },
    family: cell.family,
    tested: closest.tested,
    claim: { direction: 'greater', target: 0 },
    pValue: Number.NaN,
    unionOf: tested,
    prefix: `beats each of ${baselines.length} baseline${baselines.length === 1 ? '' : 's'} (${baselines.join(', ')})? intersection-union: closest ${ctx.label(run.runId, closest.row.methodB!)}; p_holm the largest of the ${tested.length} rows'${tested.length < rows.length ? `; ${rows.length - tested.length} without a cell` : ''}`,
    judgeWith: (e) => allBaselinesVerdict(e, allAbove, anyBelow?.row.methodB ?? undefined),
  });
  return rows;
}

/** Intersection-union: reached only if each baseline is beaten; not met when one lies wholly at or above it. */
export function allBaselinesVerdict(
  e: { estimate: number; ciLow: number; ciHigh: number; pHolm: number; units: number },
  allCisAbove: boolean,
  atOrAbove: string | undefined,
): { verdict: Verdict; reason: string } {
  const closest = `closest ${points(e.estimate)} [${points(e.ciLow)}, ${points(e.ciHigh)}]`;
  if (e.units < 6) return { verdict: 'n/a', reason: `n too small: ${e.units} units` };
  if (atOrAbove)
    return {
      verdict: 'not met',
      reason: `${atOrAbove} scores at least as much (its 95% CI at or below 0; ${closest})`,
    };
  const p = Number.isNaN(e.pHolm) ? 'n/a' : e.pHolm.toFixed(3);
  if (allCisAbove && e.pHolm < ALPHA)
    return { verdict: 'reached', reason: `every baseline beaten (${closest}; largest p_holm ${p} < ${ALPHA})` };
  return {
    verdict: 'not established',
    reason: `${closest}; ${allCisAbove ? '' : 'some CI reaches 0; '}largest p_holm ${p}${e.pHolm < ALPHA ? '' : ` ≥ ${ALPHA}`}`,
  };
}
