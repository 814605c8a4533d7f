/**
 * Experiment 4's claims: `ablation:<variation id>` per dataset × type, each ablation's run against the full system's
 * run of the same sweep (the comparisons row: paired, 95% CI, Holm across the sweep's ablations — families.ts), a
 * drop (< 0) claimed. The reason says on how many questions the ablation changed the ranking at all, and whether the
 * plan predicts a drop on that type (w/o classifier: overall; w/o temporal strategy: temporal; …). An ablation that
 * changed no ranking of a cell's questions is inert there: `n/a` (flag `inert`), and it leaves its family — a
 * difference that is 0 by construction tests nothing and would only make the others' correction harsher.
 */
import type { ClaimContext } from './context.ts';
import { familyKey, type PendingVerdict } from './families.ts';
import { findComparison, testedFromRow } from './comparison-row.ts';
import { headlineText, type Headline, type PlanRunInput } from './inputs.ts';
import { noCellVerdict, type RowKey } from './pending.ts';
import { rankingChanges } from './routing.ts';

/** The type each of the plan's ablations is predicted to hurt (variation ids of experiments/exp4-ablations.yaml). */
export const PREDICTED_DROP: Record<string, string> = {
  'no-classifier': 'all',
  'no-temporal-strategy': 'temporal',
  'no-update-strategy': 'update',
  'no-multi-hop-strategy': 'multi-hop',
  'no-abstention-strategy': 'abstention',
  'no-entity-rerank': 'factual',
};

/** A sweep names its runs `<sweep>.<variation id>` (src/run/sweep/sweep-file.ts). */
export const variationOf = (name: string): string => name.slice(name.indexOf('.') + 1);

/** The sweeps of a file: base run (the one the variations name as referenceRun) and its variation runs. */
export function ablationSweeps(runs: readonly PlanRunInput[]): { base: PlanRunInput; variations: PlanRunInput[] }[] {
  const abl = runs.filter((r) => r.plan.experiment === 'ablations');
  const out: { base: PlanRunInput; variations: PlanRunInput[] }[] = [];
  for (const base of abl.filter((r) => abl.some((o) => o.referenceRun === r.name && o !== r))) {
    out.push({ base, variations: abl.filter((o) => o.referenceRun === base.name && o !== base) });
  }
  return out;
}

const changesCache = new WeakMap<ClaimContext, Map<string, ReturnType<typeof rankingChanges>>>();

/** Ranking changes of an ablation run's method against the same method of the base run, per type (cached). */
function changesOf(ctx: ClaimContext, v: PlanRunInput, baseRunId: string, method: string, dataset: string) {
  let cache = changesCache.get(ctx);
  if (!cache) changesCache.set(ctx, (cache = new Map()));
  const key = `${v.runId}\t${baseRunId}\t${method}\t${dataset}`;
  let out = cache.get(key);
  if (!out) {
    out = rankingChanges(
      ctx.input.retrievals,
      ctx.input.questions,
      { runId: v.runId, method },
      { runId: baseRunId, method },
      dataset,
    );
    cache.set(key, out);
  }
  return out;
}

/** "changed no ranking (0 of 106 questions)" when an ablation's comparisons row is inert, else undefined. */
export function inertAblation(
  ctx: ClaimContext,
  v: PlanRunInput,
  c: {
    runB: string;
    dataset: string;
    methodA: string;
    methodB: string;
    adaptType: string;
    meanDiff: number;
    ciLow: number;
    ciHigh: number;
  },
): string | undefined {
  // Inert needs both: no ranking changed, and no score either (a score can move without a ranking fingerprint change
  // only through a defect; then the row is tested as usual).
  if (c.methodA !== c.methodB || c.runB === v.runId || c.meanDiff !== 0 || c.ciLow !== 0 || c.ciHigh !== 0)
    return undefined;
  const ch = changesOf(ctx, v, c.runB, c.methodA, c.dataset).find((x) => x.adaptType === c.adaptType);
  return ch && ch.total > 0 && ch.changed === 0
    ? `the ablation changed no ranking (0 of ${ch.total}${c.adaptType === 'all' ? '' : ` ${c.adaptType}`} questions)`
    : undefined;
}

export function ablationClaims(
  ctx: ClaimContext,
  base: PlanRunInput,
  variations: readonly PlanRunInput[],
  experiment: string,
): PendingVerdict[] {
  const out: PendingVerdict[] = [];
  const predictedTypes = variations
    .map((v) => PREDICTED_DROP[variationOf(v.name)])
    .filter((t): t is string => t !== undefined && t !== 'all');
  for (const v of variations) {
    const stats = ctx.stats(v.runId);
    const method = stats?.reference?.method;
    if (!stats?.reference || !method || stats.reference.runId !== base.runId) continue;
    for (const dataset of ctx.datasetsOf(v.runId)) {
      const s = ablationScope(ctx, base, v, dataset, method, experiment);
      // Every ablation gets a row for every type any ablation of the sweep predicts a drop on, so each family holds
      // all the sweep's ablations (an n/a row where the type has no cell says why).
      const types = [...new Set([...s.scored, ...predictedTypes])];
      for (const t of [...types.sort(), 'all']) out.push(ablationCell(s, t));
    }
  }
  return out;
}

/** One ablation run on one dataset: what each of its per-type claims shares. */
interface AblationScope {
  ctx: ClaimContext;
  base: PlanRunInput;
  v: PlanRunInput;
  /** The variation id (`no-classifier`, …). */
  id: string;
  dataset: string;
  method: string;
  h: Headline;
  byType: boolean;
  /** One family across the sweep's ablations (`families.ablations: sweep`) or one per run. */
  sweep: boolean;
  key: Omit<RowKey, 'adaptType'>;
  /** The types the full system has a score of. */
  scored: Set<string>;
  changes: ReturnType<typeof rankingChanges>;
}

function ablationScope(
  ctx: ClaimContext,
  base: PlanRunInput,
  v: PlanRunInput,
  dataset: string,
  method: string,
  experiment: string,
): AblationScope {
  const id = variationOf(v.name);
  const h = ctx.headline(base, dataset);
  const baseSeries = ctx.scores.get(base.runId, dataset, method, h);
  return {
    ctx,
    base,
    v,
    id,
    dataset,
    method,
    h,
    byType: ctx.stats(v.runId)?.family !== 'metric',
    sweep: base.plan.families?.ablations !== 'run',
    key: {
      experiment,
      dataset,
      claim: `ablation:${id}`,
      methodA: method,
      methodB: method,
      metric: h.metric,
      level: h.level,
      k: h.k,
    },
    scored: new Set([...(baseSeries?.values() ?? [])].map((x) => x.adaptType)),
    changes: changesOf(ctx, v, base.runId, method, dataset),
  };
}

/** The claim of one ablation on one type: tested (a drop claimed), inert (n/a, out of the family) or without a cell. */
function ablationCell(s: AblationScope, t: string): PendingVerdict {
  const { ctx, base, v, id, dataset, method, h } = s;
  const family = familyKey(s.sweep ? base.name : v.name, dataset, h, t, s.byType);
  const scope = s.sweep ? base.runId : v.runId;
  const ch = s.changes.find((c) => c.adaptType === t);
  const touched = ch
    ? `ranking changed on ${ch.changed} of ${ch.total} ${t === 'all' ? '' : `${t} `}questions vs the full system`
    : undefined;
  const plan = PREDICTED_DROP[id] === t ? `the plan predicts a drop here (${id})` : undefined;
  const suffix = [touched, plan].filter(Boolean).join('; ');
  const key = { ...s.key, adaptType: t };
  const row = findComparison(
    ctx,
    { run: v.runId, runB: base.runId, dataset, methodA: method, methodB: method, type: t },
    h,
  );
  if (!row) return noCellVerdict(key, family, `no cell: ${noCellReason(s, t)}`, { scope, suffix });
  const numbers = { n: row.nPairs, estimate: row.meanDiff, ciLow: row.ciLow, ciHigh: row.ciHigh };
  const inert = inertAblation(ctx, v, row);
  if (inert)
    return {
      row: { ...key, ...numbers, pValue: null },
      family: null,
      scope,
      tested: null,
      pValue: Number.NaN,
      claim: null,
      fixed: {
        verdict: 'n/a',
        reason: `inert: ${inert.replace('the ablation', id)}, so the difference is 0 by construction; left out of the family`,
      },
      flags: ['inert'],
      ...(plan ? { suffix: plan } : {}),
    };
  return {
    row: { ...key, ...numbers, pValue: row.pValue },
    family: row.family,
    scope,
    comparison: row,
    tested: testedFromRow(ctx, row, h, t),
    pValue: row.pValue,
    claim: { direction: 'less', target: 0 },
    prefix: `${id} − full (${base.name}), a drop claimed`,
    suffix,
  };
}

/** Why an ablation has no comparisons row on a type. */
function noCellReason(s: AblationScope, t: string): string {
  const asked = s.ctx.input.questions.some(
    (q) => q.runId === s.base.runId && q.dataset === s.dataset && q.adaptType === t,
  );
  if (t === 'abstention' && s.h.metric !== 'accuracy' && asked)
    return 'retrieval metrics skip abstention questions (nothing to retrieve); judge QA accuracy with an llm: block';
  if (!asked) return `${s.dataset} has no ${t} questions`;
  return !s.scored.has(t) ? `no ${headlineText(s.h)} score for ${t} questions` : 'no cell';
}
