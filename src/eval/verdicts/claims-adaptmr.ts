/**
 * Experiment 3's claims (also the beyond-benchmarks run's, on the benchmarks beyond the plan's two), per dataset, AdaptMR
 * variant (an `adaptmr` method without gold-type routing) and type (the five; a type outside them enters `all` only):
 *   adaptmr-vs-unified     the comparisons row vs the run's reference; plan targets +5 points overall, +15 on the weak
 *                          types (temporal, update), > 0 elsewhere;
 *   adaptmr-vs-baseline, adaptmr-vs-all-baselines   vs each baseline that ran, and all of them at once
 *                          (claims-baselines.ts: no baseline is selected, stand-ins and AdaptMR's own strategies are none);
 *   adaptmr-over-bm25 / adaptmr-over-hybrid   each variant whose first stage is bm25 / hybrid against that first
 *                          stage alone (the `bm25` method; `strategy` unified over hybrid), so the gain of routing is
 *                          measured over the same first-stage retriever.
 * Families: primary = the primary variants (default: all) vs unified and vs each baseline, per dataset × metric, one
 * for the overall claims and one for all the per-type claims (a claim about types is corrected over all its per-type
 * tests); everything else of the run (other baselines vs unified, the over-base claims) is exploratory, split the
 * same way; stand-ins are in no family.
 */
import { baselineClaims, baselinesOf } from './claims-baselines.ts';
import { findComparison, testedFromRow } from './comparison-row.ts';
import type { ClaimContext } from './context.ts';
import { familyKey, typeGroup, type PendingVerdict } from './families.ts';
import {
  headlineText,
  isAdaptType,
  outsideNote,
  testPairs,
  typeCounts,
  type Headline,
  type PlanRunInput,
} from './inputs.ts';
import { noCellVerdict, testedVerdict, type RowKey } from './pending.ts';
import type { RunStats } from '../stats/results/index.ts';

export { findComparison, testedFromRow } from './comparison-row.ts';

export const WEAK_TYPES = ['temporal', 'update'];
const OVERALL_TARGET = 0.05;
const WEAK_TARGET = 0.15;

/** The `adaptmr` methods of a run without gold-type routing (oracle router). */
export function adaptmrVariants(ctx: ClaimContext, run: PlanRunInput): PlanRunInput['methods'] {
  return run.methods.filter((m) => m.method === 'adaptmr' && !ctx.facts(run.runId, m.id)?.upperBound);
}

export function primaryMethods(ctx: ClaimContext, run: PlanRunInput): Set<string> {
  return new Set(run.plan.families?.primary ?? adaptmrVariants(ctx, run).map((m) => m.id));
}

/** The default base of an over-bm25 / over-hybrid claim: the `bm25` method, or unified over the hybrid first stage. */
export function firstStageBase(run: PlanRunInput, stage: 'bm25' | 'hybrid'): string | undefined {
  const named = run.plan.bases?.[stage];
  if (named) return named;
  const unifiedOver = run.methods.find(
    (m) => m.method === 'strategy' && m.options.name === 'unified' && m.options.firstStage === stage,
  )?.id;
  return stage === 'bm25' ? (run.methods.find((m) => m.method === 'bm25')?.id ?? unifiedOver) : unifiedOver;
}

export const firstStageOf = (m: { options: Record<string, unknown> }): string =>
  typeof m.options.firstStage === 'string' ? m.options.firstStage : 'embedding';

/** What every claim of one run × dataset shares: its headline, reference, types, sample and the row's identity. */
interface DatasetScope {
  ctx: ClaimContext;
  run: PlanRunInput;
  dataset: string;
  h: Headline;
  stats: RunStats;
  byType: boolean;
  base: Pick<RowKey, 'experiment' | 'dataset' | 'metric' | 'level' | 'k'>;
  reference: string | undefined;
  /** The five types the reference has questions of (sorted); a claim is made per type and for `all`. */
  types: string[];
  /** Says the `all` row covers types outside the five, when it does. */
  noted: (type: string, text: string) => string;
  note: string | undefined;
}

function datasetScope(ctx: ClaimContext, run: PlanRunInput, dataset: string, experiment: string): DatasetScope {
  const stats = ctx.stats(run.runId)!;
  const h = ctx.headline(run, dataset);
  const reference = stats?.reference?.method;
  const refSeries = reference ? ctx.scores.get(run.runId, dataset, reference, h) : undefined;
  const note = outsideNote(typeCounts(refSeries?.values()));
  return {
    ctx,
    run,
    dataset,
    h,
    stats,
    byType: stats?.family !== 'metric',
    base: { experiment, dataset, metric: h.metric, level: h.level, k: h.k },
    reference,
    types: [...new Set([...(refSeries?.values() ?? [])].map((v) => v.adaptType))].filter(isAdaptType).sort(),
    noted: (t, text) => (t === 'all' && note ? `${text}; ${note}` : text),
    note,
  };
}

export function adaptmrClaims(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[] {
  const out: PendingVerdict[] = [];
  const variants = adaptmrVariants(ctx, run);
  const primary = primaryMethods(ctx, run);
  for (const dataset of ctx.datasetsOf(run.runId)) {
    const s = datasetScope(ctx, run, dataset, experiment);
    const baselines = baselinesOf(ctx, run, dataset, s.h);
    for (const v of variants) {
      for (const t of [...s.types, 'all']) {
        const part = primary.has(v.id) ? 'primary' : 'exploratory';
        const family = familyKey(run.name, dataset, s.h, typeGroup(t), s.byType, part);
        out.push(vsUnifiedClaim(s, v.id, t, family));
        const note = t === 'all' ? s.note : undefined;
        const claim = { run, dataset, h: s.h, variant: v.id, type: t, family, base: s.base, note };
        out.push(...baselineClaims(ctx, claim, baselines));
      }
    }
    // Routing over the same first stage as its base.
    for (const stage of ['bm25', 'hybrid'] as const) out.push(...overFirstStageClaims(s, variants, stage));
  }
  return out;
}

/** adaptmr-vs-unified: the comparisons row of a variant vs the run's reference (its family assigned in families.ts). */
function vsUnifiedClaim(s: DatasetScope, variant: string, t: string, family: string): PendingVerdict {
  const { ctx, run, dataset, h, reference } = s;
  const target = t === 'all' ? OVERALL_TARGET : WEAK_TYPES.includes(t) ? WEAK_TARGET : 0;
  const row = reference
    ? findComparison(
        ctx,
        { run: run.runId, runB: run.runId, dataset, methodA: variant, methodB: reference, type: t },
        h,
      )
    : undefined;
  const key = { ...s.base, claim: 'adaptmr-vs-unified', methodA: variant, adaptType: t };
  if (!row) {
    const why = `no cell: no ${headlineText(h)} comparison with ${reference ?? 'a reference'} on ${dataset}${t === 'all' ? '' : ` ${t}`}`;
    return noCellVerdict({ ...key, methodB: reference ?? null }, family, why);
  }
  const plan =
    t === 'all'
      ? 'plan: +5–10 points overall'
      : WEAK_TYPES.includes(t)
        ? `plan: +15–25 points on ${t}, a weak type`
        : 'no plan figure for this type: > 0';
  return {
    row: {
      ...key,
      methodB: reference!,
      n: row.nPairs,
      estimate: row.meanDiff,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
      pValue: row.pValue,
    },
    family: row.family,
    comparison: row,
    tested: testedFromRow(ctx, row, h, t),
    pValue: row.pValue,
    claim: { direction: 'greater', target },
    prefix: s.noted(t, `vs ${reference}; ${plan}`),
  };
}

/** adaptmr-over-bm25 / -over-hybrid: each variant over that first stage against the first stage alone (exploratory). */
function overFirstStageClaims(
  s: DatasetScope,
  variants: PlanRunInput['methods'],
  stage: 'bm25' | 'hybrid',
): PendingVerdict[] {
  const { ctx, run, dataset, h } = s;
  const claim = `adaptmr-over-${stage}`;
  const over = variants.filter((v) => firstStageOf(v) === stage);
  const baseId = firstStageBase(run, stage);
  if (over.length === 0 || !baseId) {
    const why =
      over.length === 0
        ? `no adaptmr method with firstStage: ${stage} in this run`
        : `no ${stage} base method in this run (plan.bases.${stage}, or ${stage === 'bm25' ? 'a bm25 method' : 'a strategy method with name: unified, firstStage: hybrid'})`;
    const key = { ...s.base, claim, methodA: over[0]?.id ?? null, methodB: baseId ?? null, adaptType: 'all' };
    return [noCellVerdict(key, null, why)];
  }
  const ids = ctx.datasetIds(run.runId, dataset);
  const out: PendingVerdict[] = [];
  for (const v of over) {
    for (const t of [...s.types, 'all']) {
      const family = familyKey(run.name, dataset, h, typeGroup(t), s.byType, 'exploratory');
      const key = { ...s.base, claim, methodA: v.id, methodB: baseId, adaptType: t };
      const pairs = ctx.scores.pairs(
        { runId: run.runId, method: v.id },
        { runId: run.runId, method: baseId },
        dataset,
        h,
        t,
      );
      const tested = testPairs(pairs, s.stats, ctx.plans, ids);
      if (!tested) {
        out.push(noCellVerdict(key, family, 'no cell'));
        continue;
      }
      const prefix = s.noted(
        t,
        `routing gain over the ${stage} first stage alone (${ctx.label(run.runId, baseId)}); exploratory`,
      );
      out.push(testedVerdict(key, family, tested, { direction: 'greater', target: 0 }, { prefix }));
    }
  }
  return out;
}
