/**
 * The Holm families plan experiments declare for their comparisons rows (docs/statistics.md), as `PlanClaims.family`
 * hooks (plan-claims.ts): the AdaptMR comparisons split into a primary and an exploratory family, an ablation sweep's
 * rows share the base run's families, a transfer run's off-diagonal cells form their own. A row no hook claims keeps
 * the default family (its run × dataset × metric × type).
 */
import type { ComparisonRow } from '../stats/results/index.ts';
import { inertAblation } from './claims-ablations.ts';
import { primaryMethods } from './claims-adaptmr.ts';
import { isTransferCell, transferFamily } from './claims-transfer.ts';
import type { ClaimContext } from './context.ts';
import { EXCLUDED, familyKey, typeGroup } from './families.ts';
import { isAdaptType, type PlanRunInput } from './inputs.ts';
import type { FamilyAssignment } from './plan-claims.ts';

const headlineOf = (c: ComparisonRow) => ({ metric: c.metric, level: c.level, k: c.k });
const byTypeOf = (ctx: ClaimContext, c: ComparisonRow): boolean => ctx.stats(c.run)?.family !== 'metric';

const primaryCache = new WeakMap<ClaimContext, Map<string, Set<string>>>();

function primaryOf(ctx: ClaimContext, run: PlanRunInput): Set<string> {
  let byRun = primaryCache.get(ctx);
  if (!byRun) primaryCache.set(ctx, (byRun = new Map()));
  let set = byRun.get(run.runId);
  if (!set) byRun.set(run.runId, (set = primaryMethods(ctx, run)));
  return set;
}

/**
 * adaptmr-vs-baselines, beyond-benchmarks: an offline stand-in is described, never tested; every AdaptMR variant's row
 * (overall or on one of the five types) is primary, every other row exploratory.
 */
export function primarySplitFamily(ctx: ClaimContext, run: PlanRunInput, c: ComparisonRow): FamilyAssignment {
  const degraded = ctx.facts(c.run, c.methodA)?.degraded;
  if (degraded) return { family: `${EXCLUDED}: ${c.methodA} is a stand-in (${degraded}), described, never tested` };
  const isPrimary = primaryOf(ctx, run).has(c.methodA) && (c.adaptType === 'all' || isAdaptType(c.adaptType));
  const part = isPrimary ? 'primary' : 'exploratory';
  return { family: familyKey(run.name, c.dataset, headlineOf(c), typeGroup(c.adaptType), byTypeOf(ctx, c), part) };
}

/** ablations: an inert ablation is left out; a variation run's rows join the base run's families (`families.ablations: sweep`). */
export function ablationFamily(ctx: ClaimContext, run: PlanRunInput, c: ComparisonRow): FamilyAssignment | undefined {
  const inert = inertAblation(ctx, run, c);
  if (inert) return { family: `${EXCLUDED}: inert, ${inert}` };
  if (!run.referenceRun || run.plan.families?.ablations === 'run') return undefined;
  let scope: string | undefined; // the last run of that name, as a name → id map keeps it
  for (const r of ctx.input.runs) if (r.name === run.referenceRun) scope = r.runId;
  return {
    family: familyKey(run.referenceRun, c.dataset, headlineOf(c), c.adaptType, byTypeOf(ctx, c)),
    scope: scope ?? c.runB,
  };
}

/** router-transfer: the off-diagonal cells (a router fitted on another benchmark) form the transfer family. */
export function transferCellFamily(
  ctx: ClaimContext,
  run: PlanRunInput,
  c: ComparisonRow,
): FamilyAssignment | undefined {
  return isTransferCell(ctx, run, c)
    ? { family: transferFamily(run, c.dataset, ctx.headline(run, c.dataset)) }
    : undefined;
}
