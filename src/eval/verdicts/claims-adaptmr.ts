/**
 * Experiment 3's claims (also the beyond-benchmarks run's, on BEAM, MemDaily and LoCoMo-Plus), per dataset, AdaptMR
 * variant (an `adaptmr` method without gold-type routing) and type (the five; a type outside them enters `all` only):
 *   adaptmr-vs-unified     the comparisons row vs the run's reference; plan targets +5 points overall, +15 on the weak
 *                          types (temporal, update), > 0 elsewhere;
 *   adaptmr-vs-strongest   vs the strongest baseline — named in the file (`plan.strongest`; all questions), or the
 *                          baseline with the best headline mean on the selection half (compared on the report half);
 *                          a stand-in that returned nothing, gold-type routing and a non-ranking method are never it;
 *   adaptmr-over-bm25 / adaptmr-over-hybrid   each variant whose first stage is bm25 / hybrid against that first
 *                          stage alone (the `bm25` method; `strategy` unified over hybrid), so the gain of routing is
 *                          measured over the same first-stage retriever.
 * Families: primary = the primary variants (default: all) vs unified and vs the strongest baseline, per dataset ×
 * metric × type; everything else of the run (other baselines vs unified, the over-base claims) is exploratory.
 */
import { splitKey, splitQuestions } from '../analysis/split.ts';
import type { ComparisonRow } from '../stats/results/index.ts';
import type { ClaimContext } from './context.ts';
import { familyKey, type PendingVerdict } from './families.ts';
import {
  headlineText,
  isAdaptType,
  mean,
  outsideNote,
  testPairs,
  typeCounts,
  type Headline,
  type PlanRunInput,
  type TestedPairs,
} from './inputs.ts';

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

export interface Strongest {
  id: string;
  /** `declared`: named in the file (all questions); `selection`: chosen on the selection half (report half). */
  how: 'declared' | 'selection';
  selectionMean: number | null;
  tied: string[];
}

/** The strongest baseline of a run on a dataset (see the header), or undefined when it has none. */
export function strongestBaseline(
  ctx: ClaimContext,
  run: PlanRunInput,
  dataset: string,
  h: Headline,
): Strongest | undefined {
  const named = typeof run.plan.strongest === 'string' ? run.plan.strongest : run.plan.strongest?.[dataset];
  if (named) return { id: named, how: 'declared', selectionMean: null, tied: [named] };
  const candidates = run.methods.filter((m) => {
    const f = ctx.facts(run.runId, m.id);
    return (
      m.method !== 'adaptmr' &&
      f !== undefined &&
      f.ranks &&
      !f.upperBound &&
      !ctx.silent(run.runId, dataset, m.id) &&
      ctx.scores.get(run.runId, dataset, m.id, h) !== undefined
    );
  });
  if (candidates.length === 0) return undefined;
  const half = selectionHalf(ctx, run, dataset);
  const means = candidates
    .map((m) => {
      const s = ctx.scores.get(run.runId, dataset, m.id, h)!;
      return {
        id: m.id,
        degraded: ctx.facts(run.runId, m.id)!.degraded !== null,
        mean: mean([...s].filter(([q]) => half(q) === 'selection').map(([, v]) => v.value)),
      };
    })
    .filter((m) => !Number.isNaN(m.mean));
  if (means.length === 0) return undefined;
  const top = Math.max(...means.map((m) => m.mean));
  // Ties: a real system before an offline stand-in, then the first by id (the tie is reported).
  const tied = means
    .filter((m) => m.mean >= top - 1e-12)
    .sort((a, b) => Number(a.degraded) - Number(b.degraded) || (a.id < b.id ? -1 : 1));
  return { id: tied[0]!.id, how: 'selection', selectionMean: top, tied: tied.map((m) => m.id) };
}

/** The seeded selection / report split of a run's dataset (the split experiment 2 uses), by question id. */
export function selectionHalf(
  ctx: ClaimContext,
  run: PlanRunInput,
  dataset: string,
): (questionId: string) => 'selection' | 'report' | undefined {
  const questions = ctx.input.questions.filter((q) => q.runId === run.runId && q.dataset === dataset);
  const half = splitQuestions(questions, run.plan.split ?? 0.5, run.seed);
  return (id) => half.get(splitKey(dataset, id));
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
    const strongest = strongestBaseline(ctx, run, dataset, h);
    const half = selectionHalf(ctx, run, dataset);
    const part = (v: string): string => (primary.has(v) ? 'primary' : 'exploratory');
    for (const v of variants) {
      for (const t of [...types, 'all']) {
        const family = familyKey(run.name, dataset, h, t, byType, part(v.id));
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
        // vs the strongest baseline.
        if (!strongest) {
          out.push(
            naRow(
              'adaptmr-vs-strongest',
              v.id,
              null,
              t,
              `no baseline with ${headlineText(h)} scores on ${dataset}`,
              family,
            ),
          );
          continue;
        }
        const keep = strongest.how === 'selection' ? (id: string) => half(id) === 'report' : undefined;
        const tested = testPairs(
          ctx.scores.pairs(
            { runId: run.runId, method: v.id },
            { runId: run.runId, method: strongest.id },
            dataset,
            h,
            t,
            keep,
          ),
          stats!,
          ctx.plans,
          ids,
        );
        const how =
          strongest.how === 'declared'
            ? 'named in the experiment file; all questions'
            : `best on the selection half (${((strongest.selectionMean ?? 0) * 100).toFixed(1)}%${strongest.tied.length > 1 ? `, tied with ${strongest.tied.slice(1).join(', ')}` : ''}); compared on the report half`;
        const prefix = `vs the strongest baseline ${ctx.label(run.runId, strongest.id)} (${how})`;
        if (!tested) out.push(naRow('adaptmr-vs-strongest', v.id, strongest.id, t, `${prefix}: no cell`, family));
        else {
          out.push({
            row: {
              ...base,
              claim: 'adaptmr-vs-strongest',
              methodA: v.id,
              methodB: strongest.id,
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
            prefix: noted(t, prefix),
          });
        }
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
          const family = familyKey(run.name, dataset, h, t, byType, 'exploratory');
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
