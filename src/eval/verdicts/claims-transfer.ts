/**
 * The router-transfer experiment's claims (experiments/router-transfer.yaml). `plan.transfer` names, per method, the
 * benchmark B its classifier and abstention thresholds were fitted on. Each off-diagonal cell of the train × test
 * table — that method tested on another dataset D of the run — is one claim, `transfer:<B>-><D>`: the method minus the
 * same first stage without routing (the run's reference when the first stage is embedding, else the bm25 / hybrid
 * base, as adaptmr-over-*), over all of D's scored questions at D's headline; target > 0 ("a router fitted elsewhere
 * still helps"). A cell whose whole CI is below 0 with p_holm < 0.05 says so in its reason (routing hurts there).
 * Diagonal cells (in distribution, held out), routers fitted on nothing and gold-type routing claim nothing: the section
 * shows them for scale.
 * Family (`plan.families.transfer`): `all` (default) = every off-diagonal cell of the run — the table is read as one
 * claim, "routing transfers"; `test-dataset` = the off-diagonal cells of one test dataset (docs/statistics.md). The comparisons row of a cell carries the same family, so its p_holm is the verdict's.
 */
import type { ComparisonRow } from '../stats/results/index.ts';
import { firstStageBase, firstStageOf, findComparison, testedFromRow } from './claims-adaptmr.ts';
import type { ClaimContext } from './context.ts';
import { familyKey, type PendingVerdict } from './families.ts';
import { headlineText, testPairs, type Headline, type PlanRunInput } from './inputs.ts';
import { noCellVerdict, testedVerdict } from './pending.ts';
import { ALPHA, judge, type Evidence } from './rule.ts';

export const transferClaim = (trainedOn: string, dataset: string): string => `transfer:${trainedOn}->${dataset}`;

/** The Holm family of a transfer cell on a test dataset. */
export function transferFamily(run: PlanRunInput, dataset: string, h: Headline): string {
  return run.plan.families?.transfer === 'test-dataset'
    ? familyKey(run.name, dataset, h, 'all', false, 'transfer')
    : `${run.name}/transfer`;
}

/** The comparison base of a transferred method: the same first stage without routing. */
function baseOf(ctx: ClaimContext, run: PlanRunInput, m: PlanRunInput['methods'][number]): string | undefined {
  const stage = firstStageOf(m);
  return stage === 'embedding'
    ? ctx.stats(run.runId)?.reference?.method
    : firstStageBase(run, stage as 'bm25' | 'hybrid');
}

/** Whether a comparisons row of a router-transfer run is an off-diagonal cell's test (at the test dataset's headline). */
export function isTransferCell(ctx: ClaimContext, run: PlanRunInput, c: ComparisonRow): boolean {
  const trainedOn = run.plan.transfer?.[c.methodA];
  if (!trainedOn || trainedOn === c.dataset || c.adaptType !== 'all') return false;
  const m = run.methods.find((x) => x.id === c.methodA);
  const h = ctx.headline(run, c.dataset);
  return (
    m !== undefined &&
    c.methodB === baseOf(ctx, run, m) &&
    c.runB === c.run &&
    c.metric === h.metric &&
    c.level === h.level &&
    c.k === h.k
  );
}

export function transferClaims(ctx: ClaimContext, run: PlanRunInput, experiment: string): PendingVerdict[] {
  const stats = ctx.stats(run.runId);
  const out: PendingVerdict[] = [];
  for (const m of run.methods) {
    const trainedOn = run.plan.transfer?.[m.id];
    if (!trainedOn) continue;
    for (const dataset of ctx.datasetsOf(run.runId)) {
      if (dataset === trainedOn) continue;
      const h = ctx.headline(run, dataset);
      const family = transferFamily(run, dataset, h);
      const claim = transferClaim(trainedOn, dataset);
      const baseId = baseOf(ctx, run, m);
      const row = {
        experiment,
        dataset,
        claim,
        metric: h.metric,
        level: h.level,
        k: h.k,
        methodA: m.id,
        methodB: baseId ?? null,
        adaptType: 'all',
      };
      const prefix = `fitted on ${trainedOn} (classifier and abstention thresholds, its calibration split), tested on ${dataset}; vs ${baseId ? ctx.label(run.runId, baseId) : 'its first stage'}, the same first stage (${firstStageOf(m)}) without routing`;
      const na = (reason: string): PendingVerdict => noCellVerdict(row, family, `${prefix}: ${reason}`);
      if (!baseId || !stats) {
        out.push(na(`no ${firstStageOf(m)} base method in this run`));
        continue;
      }
      const judgeWith = (e: Evidence): ReturnType<typeof judge> => {
        const o = judge(e, { direction: 'greater', target: 0 });
        return e.ciHigh < 0 && e.pHolm < ALPHA
          ? { ...o, reason: `${o.reason}; routing hurts here (whole CI below 0, p_holm < ${ALPHA})` }
          : o;
      };
      const cmp = findComparison(
        ctx,
        { run: run.runId, runB: run.runId, dataset, methodA: m.id, methodB: baseId, type: 'all' },
        h,
      );
      if (cmp) {
        out.push({
          row: {
            ...row,
            n: cmp.nPairs,
            estimate: cmp.meanDiff,
            ciLow: cmp.ciLow,
            ciHigh: cmp.ciHigh,
            pValue: cmp.pValue,
          },
          family: cmp.family,
          comparison: cmp,
          tested: testedFromRow(ctx, cmp, h, 'all'),
          pValue: cmp.pValue,
          claim: { direction: 'greater', target: 0 },
          prefix,
          judgeWith,
        });
        continue;
      }
      // A base that is not the run's reference (a router over bm25 / hybrid): its own paired test, same seeding.
      const tested = testPairs(
        ctx.scores.pairs({ runId: run.runId, method: m.id }, { runId: run.runId, method: baseId }, dataset, h, 'all'),
        stats,
        ctx.plans,
        ctx.datasetIds(run.runId, dataset),
      );
      if (!tested) {
        out.push(na(`no cell: no question with ${headlineText(h)} scores of both`));
        continue;
      }
      out.push(testedVerdict(row, family, tested, { direction: 'greater', target: 0 }, { prefix, judgeWith }));
    }
  }
  return out;
}
