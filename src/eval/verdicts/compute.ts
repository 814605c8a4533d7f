/**
 * The `verdicts` table of a results file, computed from its rows after the comparisons (pure): each plan run's claims
 * (claims-*.ts; a beyond-benchmarks run makes experiment 3's and experiment 2's claims on its datasets, a
 * router-transfer run one claim per off-diagonal train × test cell), the Holm families declared per experiment — assigned here to the comparisons rows too, so a verdict
 * and its comparison row carry the same p_holm and family_size —, each family corrected once, then every claim
 * judged by the one rule (rule.ts). Runs without a `plan:` block have no verdicts; their comparisons keep the
 * default family (one run × dataset × metric × type).
 */
import { ablationClaims, ablationSweeps, inertAblation } from './claims-ablations.ts';
import { adaptmrClaims, primaryMethods } from './claims-adaptmr.ts';
import { ablationStaleClaims, staleClaims } from './claims-stale.ts';
import { memoryClaims } from './claims-memory.ts';
import { existingClaims } from './claims-existing.ts';
import { oracleClaims } from './claims-oracle.ts';
import { overheadClaims } from './claims-overhead.ts';
import { isTransferCell, transferClaims, transferFamily } from './claims-transfer.ts';
import { ChanceRates } from './chance.ts';
import { ClaimContext, type VerdictInput } from './context.ts';
import { correctFamilies, EXCLUDED, familyKey, finishVerdicts, typeGroup, type PendingVerdict } from './families.ts';
import type { ComparisonRow } from '../stats/results/index.ts';
import { isAdaptType, type PlanRunInput, type VerdictRow } from './inputs.ts';
import { averageReplicates } from './replicates.ts';

/** Experiments whose comparisons rows split into a primary (AdaptMR variants) and an exploratory family. */
const PRIMARY_SPLIT = new Set(['adaptmr-vs-baselines', 'beyond-benchmarks']);

/** The `experiment` column: the plan experiment's name, with the run's name when a file holds several of it. */
export function experimentNames(runs: readonly PlanRunInput[]): (run: PlanRunInput) => string {
  const sweeps = ablationSweeps(runs);
  const counts = new Map<string, number>();
  for (const r of runs)
    if (r.plan.experiment !== 'ablations') counts.set(r.plan.experiment, (counts.get(r.plan.experiment) ?? 0) + 1);
  return (run) => {
    if (run.plan.experiment === 'ablations') return sweeps.length > 1 ? `ablations/${run.name}` : 'ablations';
    return (counts.get(run.plan.experiment) ?? 0) > 1 ? `${run.plan.experiment}/${run.name}` : run.plan.experiment;
  };
}

/**
 * The declared families of the plan runs' comparisons rows (see claims-adaptmr.ts, claims-ablations.ts,
 * claims-transfer.ts; a type outside the five makes no per-type claim, so its rows are exploratory); returns
 * each row's family scope (its run, or for a sweep's ablations the base run, so the family spans the variations).
 */
export function assignFamilies(ctx: ClaimContext): (c: ComparisonRow) => string {
  const scopes = new Map<ComparisonRow, string>();
  const idOfName = new Map(ctx.input.runs.map((r) => [r.name, r.runId]));
  const byId = new Map(ctx.input.runs.map((r) => [r.runId, r]));
  const primary = new Map(
    ctx.input.runs.filter((r) => PRIMARY_SPLIT.has(r.plan.experiment)).map((r) => [r.runId, primaryMethods(ctx, r)]),
  );
  for (const c of ctx.input.comparisons) {
    const h = { metric: c.metric, level: c.level, k: c.k };
    const byType = ctx.stats(c.run)?.family !== 'metric';
    const run = byId.get(c.run);
    if (!run) continue;
    if (ctx.silent(c.run, c.dataset, c.methodA)) {
      c.family = `${EXCLUDED}: ${c.methodA} returned no memory for every question on ${c.dataset}`;
      continue;
    }
    const degraded = ctx.facts(c.run, c.methodA)?.degraded;
    if (degraded && PRIMARY_SPLIT.has(run.plan.experiment)) {
      c.family = `${EXCLUDED}: ${c.methodA} is a stand-in (${degraded}), described, never tested`;
      continue;
    }
    const inert = run.plan.experiment === 'ablations' ? inertAblation(ctx, run, c) : undefined;
    if (inert) {
      c.family = `${EXCLUDED}: inert, ${inert}`;
      continue;
    }
    if (run.plan.experiment === 'ablations' && run.referenceRun && run.plan.families?.ablations !== 'run') {
      c.family = familyKey(run.referenceRun, c.dataset, h, c.adaptType, byType);
      scopes.set(c, idOfName.get(run.referenceRun) ?? c.runB);
    } else if (PRIMARY_SPLIT.has(run.plan.experiment)) {
      const isPrimary = primary.get(run.runId)!.has(c.methodA) && (c.adaptType === 'all' || isAdaptType(c.adaptType));
      c.family = familyKey(
        run.name,
        c.dataset,
        h,
        typeGroup(c.adaptType),
        byType,
        isPrimary ? 'primary' : 'exploratory',
      );
    } else if (run.plan.experiment === 'router-transfer' && isTransferCell(ctx, run, c)) {
      c.family = transferFamily(run, c.dataset, ctx.headline(run, c.dataset));
    }
  }
  return (c) => scopes.get(c) ?? c.run;
}

export function computeVerdicts(raw: VerdictInput): VerdictRow[] {
  // A method run with `replicates: n` is judged on its replicate-averaged per-question score (replicates.ts).
  const input = averageReplicates(raw);
  const ctx = new ClaimContext(input);
  const scopeOf = assignFamilies(ctx);
  const name = experimentNames(input.runs);
  const pending: PendingVerdict[] = [];
  // In place: an intersection-union claim holds its components by reference.
  const add = (scope: string, list: PendingVerdict[]): void => {
    for (const p of list) p.scope ??= scope;
    pending.push(...list);
  };
  for (const run of input.runs) {
    const experiment = name(run);
    switch (run.plan.experiment) {
      case 'existing-systems':
        add(run.runId, existingClaims(ctx, run, experiment));
        break;
      case 'oracle-upper-bound':
        add(run.runId, oracleClaims(ctx, run, experiment));
        break;
      case 'adaptmr-vs-baselines':
        add(run.runId, [...adaptmrClaims(ctx, run, experiment), ...staleClaims(ctx, run, experiment)]);
        break;
      case 'efficiency':
        add(run.runId, overheadClaims(ctx, run, experiment));
        break;
      case 'beyond-benchmarks':
        add(run.runId, [
          ...adaptmrClaims(ctx, run, experiment),
          ...staleClaims(ctx, run, experiment),
          ...oracleClaims(ctx, run, experiment),
        ]);
        break;
      case 'router-transfer':
        add(run.runId, transferClaims(ctx, run, experiment));
        break;
      case 'ablations':
        break;
    }
    add(run.runId, memoryClaims(ctx, run, experiment));
  }
  for (const { base, variations } of ablationSweeps(input.runs))
    add(base.runId, [
      ...ablationClaims(ctx, base, variations, name(base)),
      ...ablationStaleClaims(ctx, base, variations, name(base)),
    ]);
  correctFamilies(input.comparisons, pending, scopeOf);
  const chance = new ChanceRates(input.questions);
  for (const p of pending)
    if (p.tested && p.chance === undefined)
      p.chance = chance.rowRate(p.row.dataset, p.tested.ids, p.row.metric, p.row.level, p.row.k);
  return finishVerdicts(pending);
}
