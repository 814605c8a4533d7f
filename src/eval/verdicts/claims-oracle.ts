/**
 * Experiment 2's claims (oracle.ts does the arithmetic), per dataset:
 *   oracle-vs-unified        per type and overall; overall target = plan.gapTarget points (default 10), types 0;
 *   oracle-vs-best-single    per type and overall, against the best single strategy chosen on the selection half;
 *                            strategies tied there give one row each (flag `tie`), never an alphabetical pick;
 *   premise-single-strategy  overall: "no single strategy matches the routed oracle" — reached only when the oracle
 *                            beats every strategy (intersection-union: p = the largest of their p-values, every CI
 *                            above 0); not met as soon as one strategy scores at least as much as the oracle on the
 *                            report half. Its reason names the per-question ceiling, the upper bound of any routing.
 * Holm families per dataset: the overall claims (with the premise), and every per-type claim of the dataset together
 * (a claim about types is corrected over all its per-type tests). Per-type claims on the five types
 * only: a type outside them (LoCoMo-Plus's `cognitive`) is routed like the others and enters the overall claims.
 */
import type { ClaimContext } from './context.ts';
import { familyKey, typeGroup, type PendingVerdict } from './families.ts';
import {
  headlineText,
  isAdaptType,
  outsideNote,
  type Headline,
  type PlanRunInput,
  type TestedPairs,
} from './inputs.ts';
import { oracleAnalysis, oracleStrategies, type OracleAnalysis, type OracleTypeRow } from './oracle.ts';
import { noCellVerdict, type RowKey } from './pending.ts';
import { ALPHA, points, type Verdict } from './rule.ts';

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const ci = (i: { estimate: number; low: number; high: number }): string =>
  `${pct(i.estimate)} [${pct(i.low)}, ${pct(i.high)}]`;

/** The analysis a run's report section shows next to the verdicts (the same numbers). */
export function oracleAnalyses(ctx: ClaimContext, run: PlanRunInput): OracleAnalysis[] {
  const stats = ctx.stats(run.runId);
  if (!stats?.reference) return [];
  const strategies = oracleStrategies(run.methods);
  return ctx.datasetsOf(run.runId).flatMap((dataset) => {
    const a = oracleAnalysis({
      scores: ctx.scores,
      runId: run.runId,
      dataset,
      headline: ctx.headline(run, dataset),
      strategies,
      reference: stats.reference!.method,
      split: run.plan.split ?? 0.5,
      seed: run.seed,
      stats,
      plans: ctx.plans,
    });
    return a ? [a] : [];
  });
}

function fromTest(t: TestedPairs): Pick<PendingVerdict['row'], 'n' | 'estimate' | 'ciLow' | 'ciHigh' | 'pValue'> {
  return {
    n: t.ids.length,
    estimate: t.result.meanDiff,
    ciLow: t.result.ciLow,
    ciHigh: t.result.ciHigh,
    pValue: t.result.pValue,
  };
}

export function oracleClaims(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[] {
  const stats = ctx.stats(run.runId);
  const out: PendingVerdict[] = [];
  const analyses = oracleAnalyses(ctx, run);
  for (const dataset of ctx.datasetsOf(run.runId)) {
    const h = ctx.headline(run, dataset);
    const base = { experiment, dataset, metric: h.metric, level: h.level, k: h.k };
    const analysis = analyses.find((a) => a.dataset === dataset);
    if (!stats?.reference || !analysis) {
      const why = `no cell: needs a reference method and at least two strategies with ${headlineText(h)} scores on ${dataset}`;
      for (const claim of ['oracle-vs-unified', 'oracle-vs-best-single', 'premise-single-strategy'])
        out.push(noCellVerdict({ ...base, claim, methodA: 'oracle', methodB: null, adaptType: 'all' }, null, why));
      continue;
    }
    const s: OracleScope = {
      run,
      h,
      base,
      analysis,
      reference: stats.reference.method,
      target: (run.plan.gapTarget ?? 10) / 100,
      byType: stats.family !== 'metric',
    };
    for (const r of analysis.rows.filter((x) => x.adaptType === 'all' || isAdaptType(x.adaptType)))
      out.push(...oracleRowClaims(s, r));
  }
  return out;
}

/** One run × dataset of the oracle's claims. */
interface OracleScope {
  run: PlanRunInput;
  h: Headline;
  base: Pick<PendingVerdict['row'], 'experiment' | 'dataset' | 'metric' | 'level' | 'k'>;
  analysis: OracleAnalysis;
  reference: string;
  /** The plan's overall gap (fraction of the metric). */
  target: number;
  byType: boolean;
}

/** One type's (or `all`'s) claims: oracle-vs-unified, oracle-vs-best-single (per tied strategy) and, on `all`, the premise. */
function oracleRowClaims(s: OracleScope, r: OracleTypeRow): PendingVerdict[] {
  const { analysis, base, target } = s;
  const family = familyKey(s.run.name, base.dataset, s.h, typeGroup(r.adaptType), s.byType, 'oracle');
  const key = { ...base, methodA: 'oracle', adaptType: r.adaptType };
  const gapTarget = r.adaptType === 'all' ? target : 0;
  const out: PendingVerdict[] = [
    {
      row: { ...key, claim: 'oracle-vs-unified', methodB: s.reference, ...fromTest(r.vsReference) },
      family,
      tested: r.vsReference,
      pValue: r.vsReference.result.pValue,
      claim: { direction: 'greater', target: gapTarget },
      prefix: `report half; ${chosenText(analysis, r)}; target ${gapTarget === 0 ? '> 0' : `≥ ${points(gapTarget)}`} points (plan: ≥ ${points(target)} overall)`,
    },
  ];
  const single = analysis.bestSingle;
  const singleText = (id: string): string =>
    single.tied.length > 1
      ? `tied for best single strategy on the selection half (${((single.selectionMean ?? 0) * 100).toFixed(1)}%) with ${single.tied.filter((x) => x !== id).join(', ')}: one row per tied strategy, none picked`
      : `best single strategy on the selection half: ${id}`;
  for (const tied of r.vsTied)
    out.push({
      row: { ...key, claim: 'oracle-vs-best-single', methodB: tied.id, ...fromTest(tied.vs) },
      family,
      tested: tied.vs,
      pValue: tied.vs.result.pValue,
      claim: { direction: 'greater', target: 0 },
      prefix: `report half; ${singleText(tied.id)}; oracle ${ci(r.oracle)} vs ${ci(tied.mean)}`,
      ...(single.tied.length > 1 ? { flags: ['tie'] } : {}),
    });
  if (r.adaptType === 'all') out.push(premiseClaim(analysis, r, key, family));
  return out;
}

/** What the oracle serves a type with (the tie rule said), or for `all` every type's choice. */
function chosenText(analysis: OracleAnalysis, r: OracleTypeRow): string {
  const note = outsideNote(new Map(analysis.rows.map((x) => [x.adaptType, x.n])));
  if (r.adaptType === 'all')
    return `oracle = ${analysis.choices.map((x) => `${x.adaptType}→${x.chosen}`).join(', ')}${note ? `; ${note}` : ''}`;
  const c = analysis.choices.find((x) => x.adaptType === r.adaptType)!;
  return `oracle serves ${r.adaptType} with ${c.chosen}${c.tied.length > 1 ? ` (tied with ${c.tied.filter((x) => x !== c.chosen).join(', ')}: ${c.rule === 'own' ? "the type's own strategy" : "not the type's own; first by id"})` : ''}`;
}

/** The premise: the oracle against every single strategy (the weakest margin carries the row; intersection-union). */
function premiseClaim(
  analysis: OracleAnalysis,
  r: OracleTypeRow,
  key: Omit<RowKey, 'claim' | 'methodB'>,
  family: string,
): PendingVerdict {
  const singles = analysis.singles;
  const worst = singles.reduce((a, b) => (b.vs.result.meanDiff < a.vs.result.meanDiff ? b : a));
  const pMax = Math.max(...singles.map((x) => x.vs.result.pValue));
  // The p that carries the row can belong to another strategy than the closest one (intersection-union): say whose.
  const pCarrier = singles.find((x) => x.vs.result.pValue === pMax)!;
  const allAbove = singles.every((x) => x.vs.result.ciLow > 0);
  const ceiling = `per-question ceiling (best strategy per question, the upper bound of any routing) ${ci(r.ceiling)}; oracle ${ci(r.oracle)}`;
  return {
    row: {
      ...key,
      claim: 'premise-single-strategy',
      methodB: worst.id,
      adaptType: 'all',
      ...fromTest(worst.vs),
      pValue: pMax,
    },
    family,
    tested: worst.vs,
    pValue: pMax,
    claim: { direction: 'greater', target: 0 },
    prefix: `report half; "no single strategy matches the routed oracle": oracle − each of ${singles.length} strategies, closest ${worst.id}; p is the largest of their p-values (${pCarrier.id}'s)`,
    suffix: ceiling,
    judgeWith: (e) => premiseVerdict(e, allAbove),
  };
}

/** Intersection-union: reached only if every single strategy is beaten (all CIs above 0, largest p after Holm < α). */
export function premiseVerdict(
  e: { estimate: number; ciLow: number; ciHigh: number; pHolm: number; units: number },
  allCisAbove: boolean,
): { verdict: Verdict; reason: string } {
  const closest = `closest strategy ${points(e.estimate)} [${points(e.ciLow)}, ${points(e.ciHigh)}]`;
  if (e.estimate <= 0)
    return { verdict: 'not met', reason: `a single strategy scores at least as much as the oracle (${closest})` };
  if (e.units < 6) return { verdict: 'n/a', reason: `n too small: ${e.units} units` };
  if (allCisAbove && e.pHolm < ALPHA)
    return {
      verdict: 'reached',
      reason: `the oracle beats every strategy (${closest}; largest p_holm ${e.pHolm.toFixed(3)} < ${ALPHA})`,
    };
  return {
    verdict: 'not established',
    reason: `${closest}; ${allCisAbove ? '' : 'some CI reaches 0; '}largest p_holm ${Number.isNaN(e.pHolm) ? 'n/a' : e.pHolm.toFixed(3)}`,
  };
}
