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
import { headlineText, isAdaptType, outsideNote, testPairs, typeCounts, type PlanRunInput } from './inputs.ts';

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

export function adaptmrClaims(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[] {
  const stats = ctx.stats(run.runId);
  const out: PendingVerdict[] = [];
  const byType = stats?.family !== 'metric';
  const variants = adaptmrVariants(ctx, run);
  const primary = primaryMethods(ctx, run);
  for (const dataset of ctx.datasetsOf(run.runId)) {
    const h = ctx.headline(run, dataset);
    const base = { experiment, dataset, metric: h.metric, level: h.level, k: h.k };
    const naRow = (
      claim: string,
      methodA: string | null,
      methodB: string | null,
      type: string,
      reason: string,
      family: string | null = null,
    ): PendingVerdict => ({
      row: {
        ...base,
        claim,
        methodA,
        methodB,
        adaptType: type,
        n: 0,
        estimate: null,
        ciLow: null,
        ciHigh: null,
        pValue: null,
      },
      family,
      tested: null,
      pValue: Number.NaN,
      claim: null,
      fixed: { verdict: 'n/a', reason },
    });
    const reference = stats?.reference?.method;
    const refSeries = reference ? ctx.scores.get(run.runId, dataset, reference, h) : undefined;
    const types = [...new Set([...(refSeries?.values() ?? [])].map((v) => v.adaptType))].filter(isAdaptType).sort();
    const note = outsideNote(typeCounts(refSeries?.values()));
    const noted = (t: string, text: string): string => (t === 'all' && note ? `${text}; ${note}` : text);
    const ids = ctx.datasetIds(run.runId, dataset);
    const baselines = baselinesOf(ctx, run, dataset, h);
    const part = (v: string): string => (primary.has(v) ? 'primary' : 'exploratory');
    for (const v of variants) {
      for (const t of [...types, 'all']) {
        const family = familyKey(run.name, dataset, h, typeGroup(t), byType, part(v.id));
        // vs unified: the comparisons row (its family assigned in families.ts).
        const target = t === 'all' ? OVERALL_TARGET : WEAK_TYPES.includes(t) ? WEAK_TARGET : 0;
        const row = reference
          ? findComparison(
              ctx,
              { run: run.runId, runB: run.runId, dataset, methodA: v.id, methodB: reference, type: t },
              h,
            )
          : undefined;
        const plan =
          t === 'all'
            ? 'plan: +5–10 points overall'
            : WEAK_TYPES.includes(t)
              ? `plan: +15–25 points on ${t}, a weak type`
              : 'no plan figure for this type: > 0';
        if (row) {
          out.push({
            row: {
              ...base,
              claim: 'adaptmr-vs-unified',
              methodA: v.id,
              methodB: reference!,
              adaptType: t,
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
            prefix: noted(t, `vs ${reference}; ${plan}`),
          });
        } else
          out.push(
            naRow(
              'adaptmr-vs-unified',
              v.id,
              reference ?? null,
              t,
              `no cell: no ${headlineText(h)} comparison with ${reference ?? 'a reference'} on ${dataset}${t === 'all' ? '' : ` ${t}`}`,
              family,
            ),
          );
        out.push(
          ...baselineClaims(
            ctx,
            { run, dataset, h, variant: v.id, type: t, family, base, note: t === 'all' ? note : undefined },
            baselines,
          ),
        );
      }
    }
    // Routing over the same first stage as its base.
    for (const stage of ['bm25', 'hybrid'] as const) {
      const claim = `adaptmr-over-${stage}`;
      const over = variants.filter((v) => firstStageOf(v) === stage);
      const baseId = firstStageBase(run, stage);
      if (over.length === 0 || !baseId) {
        out.push(
          naRow(
            claim,
            over[0]?.id ?? null,
            baseId ?? null,
            'all',
            over.length === 0
              ? `no adaptmr method with firstStage: ${stage} in this run`
              : `no ${stage} base method in this run (plan.bases.${stage}, or ${stage === 'bm25' ? 'a bm25 method' : 'a strategy method with name: unified, firstStage: hybrid'})`,
          ),
        );
        continue;
      }
      for (const v of over) {
        for (const t of [...types, 'all']) {
          const family = familyKey(run.name, dataset, h, typeGroup(t), byType, 'exploratory');
          const tested = testPairs(
            ctx.scores.pairs({ runId: run.runId, method: v.id }, { runId: run.runId, method: baseId }, dataset, h, t),
            stats!,
            ctx.plans,
            ids,
          );
          if (!tested) {
            out.push(naRow(claim, v.id, baseId, t, 'no cell', family));
            continue;
          }
          out.push({
            row: {
              ...base,
              claim,
              methodA: v.id,
              methodB: baseId,
              adaptType: t,
              n: tested.ids.length,
              estimate: tested.result.meanDiff,
              ciLow: tested.result.ciLow,
              ciHigh: tested.result.ciHigh,
              pValue: tested.result.pValue,
            },
            family,
            tested,
            pValue: tested.result.pValue,
            claim: { direction: 'greater', target: 0 },
            prefix: noted(
              t,
              `routing gain over the ${stage} first stage alone (${ctx.label(run.runId, baseId)}); exploratory`,
            ),
          });
        }
      }
    }
  }
  return out;
}
