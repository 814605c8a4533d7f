/**
 * The contract of a plan experiment (plan §3.4, and the two beyond it): what one folder under src/plan-experiments/
 * gives the harness — its name (a config's `plan.experiment`), the claims a run of it makes and the Holm families it
 * declares (the verdict engine's half, src/eval/verdicts/plan-claims.ts), and its section of `adaptmr report`. The
 * registry (registry.ts) lists every entry in the report's order; the conformance suite runs each.
 */
import type { PLAN_EXPERIMENTS } from '../core/stats-config.ts';
import type { PlanClaims } from '../eval/verdicts/index.ts';
import type { PlanRun } from '../report/plan/plan-runs.ts';
import type { PlanSection } from '../report/plan/section.ts';
import type { ResultStore } from '../store/index.ts';

export type PlanExperimentName = (typeof PLAN_EXPERIMENTS)[number];

export interface SectionOptions {
  /** Where the section's charts are written. */
  chartsDir: string;
  /** Bootstrap resamples of the CIs a section computes itself (the stored statistics have their own). */
  resamples: number;
}

export interface PlanExperiment extends PlanClaims {
  readonly name: PlanExperimentName;
  /** One line: what the experiment asks (shown by the conformance suite and docs). */
  readonly description: string;
  /** Its sections of `adaptmr report`, given its runs in the file (in file order; never called without one). */
  sections(store: ResultStore, runs: readonly PlanRun[], opts: SectionOptions): Promise<PlanSection[]>;
}

/** A plan experiment's entry, checked by the type system and frozen. */
export function definePlanExperiment<const E extends PlanExperiment>(entry: E): Readonly<E> {
  return Object.freeze(entry);
}

/** `sections` for an experiment with one section per run. */
export function sectionPerRun(
  section: (store: ResultStore, run: PlanRun, opts: SectionOptions) => Promise<PlanSection>,
): PlanExperiment['sections'] {
  return async (store, runs, opts) => {
    const out: PlanSection[] = [];
    for (const run of runs) out.push(await section(store, run, opts));
    return out;
  };
}
