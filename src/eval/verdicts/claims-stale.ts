/**
 * Experiment 3's `adaptmr-update-stale` (also the beyond-benchmarks run's): the update route's purpose is to keep
 * the old value of a changed fact from outranking the new one, so each AdaptMR variant's stale-evidence rate
 * (`stale_above`, src/eval/rank-metrics.ts; lower is better) on update questions is compared, paired, with the
 * reference and with every baseline that ran (claims-baselines.ts: no baseline is selected), at the headline's
 * level and k; a lower rate (< 0) is claimed. Only questions with superseded evidence carry the metric, so a dataset
 * with update questions but none marked superseded gets an n/a row saying so; one without update questions, none. Exploratory: its own Holm family per dataset.
 *
 * Experiment 4's w/o-update ablation (`ablation:no-update-strategy`) is judged on the same metric too: without the
 * update strategy the stale-evidence rate on update questions should rise (ablation − full > 0 claimed).
 */
import type { ClaimContext } from './context.ts';
import { familyKey, type PendingVerdict } from './families.ts';
import { variationOf } from './claims-ablations.ts';
import { adaptmrVariants, findComparison, testedFromRow } from './claims-adaptmr.ts';
import { baselinesOf } from './claims-baselines.ts';
import { headlineText, testPairs, type Headline, type PlanRunInput } from './inputs.ts';
import { noCellVerdict, testedVerdict } from './pending.ts';

export const STALE_CLAIM = 'adaptmr-update-stale';
const TYPE = 'update';

/** The claim's rows for one run. */
export function staleClaims(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[] {
  const stats = ctx.stats(run.runId);
  const out: PendingVerdict[] = [];
  const reference = stats?.reference?.method;
  for (const dataset of ctx.datasetsOf(run.runId)) {
    const asked = ctx.input.questions.some(
      (q) => q.runId === run.runId && q.dataset === dataset && q.adaptType === TYPE,
    );
    if (!asked) continue;
    const h = ctx.headline(run, dataset);
    const stale: Headline = { metric: 'stale_above', level: h.level, k: h.k };
    const family = familyKey(run.name, dataset, stale, TYPE, true, 'exploratory');
    const ids = ctx.datasetIds(run.runId, dataset);
    const comparators: { id: string; what: string }[] = [
      ...(reference ? [{ id: reference, what: 'the reference' }] : []),
      ...baselinesOf(ctx, run, dataset, h)
        .filter((id) => id !== reference)
        .map((id) => ({ id, what: 'the baseline' })),
    ];
    for (const v of adaptmrVariants(ctx, run)) {
      for (const c of comparators) {
        const row = {
          experiment,
          dataset,
          claim: STALE_CLAIM,
          methodA: v.id,
          methodB: c.id,
          metric: stale.metric,
          level: stale.level,
          k: stale.k,
          adaptType: TYPE,
        };
        const pairs = ctx.scores.pairs(
          { runId: run.runId, method: v.id },
          { runId: run.runId, method: c.id },
          dataset,
          stale,
          TYPE,
        );
        const tested = stats ? testPairs(pairs, stats, ctx.plans, ids) : null;
        const prefix = `stale-evidence rate (lower is better) vs ${c.what} ${ctx.label(run.runId, c.id)}`;
        out.push(
          tested
            ? testedVerdict(row, family, tested, { direction: 'less', target: 0 }, { prefix })
            : noCellVerdict(
                row,
                family,
                `${prefix}: no cell — no ${headlineText(stale)} scores on ${dataset} update questions (no superseded evidence at this level)`,
              ),
        );
      }
    }
  }
  return out;
}

/** The w/o-update ablation of each sweep, on `stale_above` (update questions, the headline's level and k). */
export function ablationStaleClaims(
  ctx: ClaimContext,
  base: PlanRunInput,
  variations: readonly PlanRunInput[],
  experiment: string,
): PendingVerdict[] {
  const out: PendingVerdict[] = [];
  for (const v of variations.filter((x) => variationOf(x.name) === 'no-update-strategy')) {
    const method = ctx.stats(v.runId)?.reference?.method;
    if (!method) continue;
    for (const dataset of ctx.datasetsOf(v.runId)) {
      const h = ctx.headline(base, dataset);
      const stale: Headline = { metric: 'stale_above', level: h.level, k: h.k };
      const row0 = { experiment, dataset, claim: 'ablation:no-update-strategy', methodA: method, methodB: method };
      const row = { ...row0, metric: stale.metric, level: stale.level, k: stale.k, adaptType: TYPE };
      const family = familyKey(base.name, dataset, stale, TYPE, true, 'exploratory');
      const c = findComparison(
        ctx,
        { run: v.runId, runB: base.runId, dataset, methodA: method, methodB: method, type: TYPE },
        stale,
      );
      const prefix = `no-update-strategy − full (${base.name}) on the stale-evidence rate (lower is better), a rise claimed`;
      if (!c) {
        out.push(
          noCellVerdict(row, family, `${prefix}: no cell — no ${headlineText(stale)} scores on ${dataset}`, {
            scope: base.runId,
          }),
        );
        continue;
      }
      const n = { n: c.nPairs, estimate: c.meanDiff, ciLow: c.ciLow, ciHigh: c.ciHigh, pValue: c.pValue };
      out.push({
        row: { ...row, ...n },
        family,
        scope: base.runId,
        tested: testedFromRow(ctx, c, stale, TYPE),
        pValue: c.pValue,
        claim: { direction: 'greater', target: 0 },
        prefix,
      });
    }
  }
  return out;
}
