/**
 * The `verdicts` table of a results file, computed from its rows after the comparisons (pure): each plan run's claims,
 * made by its experiment's entry (plan-claims.ts; src/plan-experiments/<name>/ composes them from claims-*.ts), the
 * Holm families each experiment declares — assigned here to the comparisons rows too, so a verdict and its comparison
 * row carry the same p_holm and family_size —, each family corrected once, then every claim judged by the one rule
 * (rule.ts). Runs without a `plan:` block have no verdicts; their comparisons keep the
 * default family (one run × dataset × metric × type).
 */
import { ablationSweeps } from './claims-ablations.ts';
import { memoryClaims } from './claims-memory.ts';
import { ChanceRates } from './chance.ts';
import { ClaimContext, type VerdictInput } from './context.ts';
import { correctFamilies, EXCLUDED, finishVerdicts, type PendingVerdict } from './families.ts';
import type { ComparisonRow } from '../stats/results/index.ts';
import type { PlanRunInput, VerdictRow } from './inputs.ts';
import type { PlanClaims } from './plan-claims.ts';
import { averageReplicates } from './replicates.ts';

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
 * The declared families of the plan runs' comparisons rows (each experiment's `family` hook, family-hooks.ts; a
 * type outside the five makes no per-type claim, so its rows are exploratory); returns each row's family scope (its
 * run, or for a sweep's ablations the base run, so the family spans the variations).
 */
export function assignFamilies(
  ctx: ClaimContext,
  experiments: ReadonlyMap<string, PlanClaims>,
): (c: ComparisonRow) => string {
  const scopes = new Map<ComparisonRow, string>();
  const byId = new Map(ctx.input.runs.map((r) => [r.runId, r]));
  for (const c of ctx.input.comparisons) {
    const run = byId.get(c.run);
    if (!run) continue;
    if (ctx.silent(c.run, c.dataset, c.methodA)) {
      c.family = `${EXCLUDED}: ${c.methodA} returned no memory for every question on ${c.dataset}`;
      continue;
    }
    const assigned = experiments.get(run.plan.experiment)?.family?.(ctx, run, c);
    if (!assigned) continue;
    c.family = assigned.family;
    if (assigned.scope !== undefined) scopes.set(c, assigned.scope);
  }
  return (c) => scopes.get(c) ?? c.run;
}

/** The registry's entries by name; a plan run naming none is a bug of the registry (the config schema checks names). */
function byName(experiments: readonly PlanClaims[], runs: readonly PlanRunInput[]): Map<string, PlanClaims> {
  const map = new Map(experiments.map((e) => [e.name, e]));
  for (const r of runs)
    if (!map.has(r.plan.experiment)) throw new Error(`no plan experiment "${r.plan.experiment}" in the registry`);
  return map;
}

/** The verdicts of a file's plan runs, each run's claims made by its experiment (src/plan-experiments/registry.ts). */
export function computeVerdicts(raw: VerdictInput, experiments: readonly PlanClaims[]): VerdictRow[] {
  // A method run with `replicates: n` is judged on its replicate-averaged per-question score (replicates.ts).
  const input = averageReplicates(raw);
  const ctx = new ClaimContext(input);
  const registry = byName(experiments, input.runs);
  const scopeOf = assignFamilies(ctx, registry);
  const name = experimentNames(input.runs);
  const pending: PendingVerdict[] = [];
  // In place: an intersection-union claim holds its components by reference.
  const add = (scope: string, list: PendingVerdict[]): void => {
    for (const p of list) p.scope ??= scope;
    pending.push(...list);
  };
  for (const run of input.runs) {
    const experiment = name(run);
    add(run.runId, registry.get(run.plan.experiment)?.claims?.(ctx, run, experiment) ?? []);
    add(run.runId, memoryClaims(ctx, run, experiment));
  }
  for (const e of experiments)
    for (const { scope, claims } of e.acrossRuns?.(ctx, input.runs, name) ?? []) add(scope, claims);
  correctFamilies(input.comparisons, pending, scopeOf);
  const chance = new ChanceRates(input.questions);
  for (const p of pending)
    if (p.tested && p.chance === undefined)
      p.chance = chance.rowBand(p.row.dataset, p.tested.ids, p.row.metric, p.row.level, p.row.k);
  return finishVerdicts(pending);
}
