/**
 * The `stats:` and `plan:` blocks of an experiment config. Neither changes what a run computes, so both
 * are left out of the run's identity (src/run/config/load-config.ts): adding them to an existing experiment resumes it.
 *   stats — how the results file's statistics are computed (bootstrap CIs of every scores_by_type cell; paired
 *           comparisons of every method against a reference, Holm-corrected within a family); src/eval/stats.
 *   plan  — which of the AdaptMR plan's five experiments (plan §3.4) the file is, so `adaptmr report` prints
 *           that experiment's section and chart.
 */
import { z } from 'zod';
import { unknownName } from './registry.ts';

export const STATS_DEFAULTS = {
  resamples: 2000,
  ci: 'bca',
  confidence: 0.95,
  cluster: 'auto',
  family: 'metric-type',
  continuousTest: 'sign-flip',
} as const;

export const StatsConfigSchema = z
  .object({
    /** Bootstrap resamples (and Monte Carlo sign flips); ≥ 2,000 recommended for 95% intervals. */
    resamples: z.number().int().min(100).max(100000).default(STATS_DEFAULTS.resamples),
    /** Seed of every resampling plan; default: the experiment's seed. */
    seed: z.number().int().optional(),
    /** Interval: bias-corrected and accelerated (default) or plain percentile. */
    ci: z.enum(['percentile', 'bca']).default(STATS_DEFAULTS.ci),
    confidence: z.number().gt(0.5).lt(1).default(STATS_DEFAULTS.confidence),
    /**
     * What is resampled: `auto` = conversations for datasets whose questions share a conversation (LoCoMo ids
     * `<conversation>:q<i>`), questions otherwise; `question` or `conversation` force one.
     */
    cluster: z.enum(['auto', 'question', 'conversation']).default(STATS_DEFAULTS.cluster),
    /** Method id every other method is compared with; default: the first unified-embedding method, else the first method. */
    reference: z.string().optional(),
    /** Take the reference method from another run of the same results file (by run name; sweeps compare variations with the base run). */
    referenceRun: z.string().optional(),
    /** Holm family: one per metric and AdaptMR type (`metric-type`, default) or one per metric over all types (`metric`). */
    family: z.enum(['metric-type', 'metric']).default(STATS_DEFAULTS.family),
    /** Test for continuous scores (binary ones get exact McNemar; clustered ones a cluster sign-flip). */
    continuousTest: z.enum(['sign-flip', 'wilcoxon']).default(STATS_DEFAULTS.continuousTest),
    /** Only these metric ids get comparisons (all by default). */
    metrics: z.array(z.string()).nonempty().optional(),
  })
  .strict();
export type StatsConfig = z.infer<typeof StatsConfigSchema>;

/**
 * The experiment names a config's `plan.experiment` accepts (a public contract; a typo fails with "did you mean").
 * Each is one entry of src/plan-experiments/registry.ts; its conformance suite checks the two lists agree.
 */
export const PLAN_EXPERIMENTS = [
  'existing-systems',
  'oracle-upper-bound',
  'adaptmr-vs-baselines',
  'ablations',
  'efficiency',
  'beyond-benchmarks',
  'router-transfer',
] as const;

const PlanLevelSchema = z.enum(['session', 'turn', 'qa']);

/** One dataset's headline: metric, level and k (k absent for QA metrics). */
export const HeadlineSchema = z
  .object({
    metric: z.string().default('recall_any'),
    level: PlanLevelSchema,
    k: z.number().int().positive().optional(),
  })
  .strict();
export type HeadlineConfig = z.infer<typeof HeadlineSchema>;

/** A method id for every dataset, or one per dataset name. */
const PerDatasetMethod = z.union([z.string(), z.record(z.string(), z.string())]);

export const PlanConfigSchema = z
  .object({
    /** Which of the plan's five experiments this file is (its section in `adaptmr report`). */
    experiment: z.enum(PLAN_EXPERIMENTS, {
      error: (issue) => unknownName('plan experiment', String(issue.input), [...PLAN_EXPERIMENTS]),
    }),
    /**
     * Headline metric of the section, for every dataset or per dataset name (default: judged accuracy when the run
     * answers questions — `level` is then ignored, so one file serves offline and with an llm: block —, else recall_any).
     */
    metric: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
    /**
     * Level of the headline metric: one for every dataset, or one per dataset name (e.g. `{ longmemeval-s: session,
     * locomo: turn }` when LoCoMo runs as turns); a dataset not in the map gets session (qa for a QA metric).
     */
    level: z.union([PlanLevelSchema, z.record(z.string(), PlanLevelSchema)]).optional(),
    /** Cut-off of the headline metric: one for every dataset, or one per dataset name (a dataset not in the map gets 10). */
    k: z.union([z.number().int().positive(), z.record(z.string(), z.number().int().positive())]).optional(),
    /** existing-systems: the plan's systems (method registry names) the experiment should cover; the report lists those not run. */
    systems: z.array(z.string()).optional(),
    /** oracle-upper-bound: the gap (in points of the metric, 0–100) the plan predicts. */
    gapTarget: z.number().positive().optional(),
    /** oracle-upper-bound (and beyond-benchmarks' oracle): share of each type used to choose the strategy (the rest reports it). */
    split: z.number().gt(0).lt(1).optional(),
    /**
     * beyond-benchmarks: a Chinese dataset whose per-type means are shown next to an English one's, both at ONE metric
     * (default ndcg_any@10 at turn level), e.g. `{ zh: <a Chinese dataset>, en: <an English one> }`.
     */
    languages: z
      .object({
        zh: z.string(),
        en: z.string(),
        metric: z.string().optional(),
        level: PlanLevelSchema.optional(),
        k: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    /** router-transfer: the benchmark each transferred method's classifier and thresholds were fitted on, by method id. */
    transfer: z.record(z.string(), z.string()).optional(),
    /**
     * Each dataset's headline (metric, level, k), declared before the run; `auto` (or a dataset left out, when
     * neither this nor metric/level/k is given) = the one that separates the methods most on the selection half
     * (docs/statistics.md). Takes precedence over level / k; a run with answers (`qa:`) headlines judged accuracy
     * unless `metric` names another, as with `level`.
     */
    headline: z.record(z.string(), z.union([HeadlineSchema, z.literal('auto')])).optional(),
    /**
     * Kept for older files (configs are a public contract): the baseline they named as the strongest is now one of
     * `baselines` — every baseline is compared, none is selected (docs/statistics.md).
     */
    strongest: PerDatasetMethod.optional(),
    /**
     * adaptmr-vs-baselines, beyond-benchmarks: the baselines every AdaptMR variant is compared with (adaptmr-vs-baseline,
     * one row each, and adaptmr-vs-all-baselines), as a list or a list per dataset; default every ranking method that
     * is not AdaptMR, not one of its own strategies, not gold-type routing and not an offline stand-in. An older
     * file's `strongest` is added to them.
     */
    baselines: z.union([z.array(z.string()), z.record(z.string(), z.array(z.string()))]).optional(),
    /**
     * adaptmr-vs-baselines, beyond-benchmarks (and router-transfer's routers over another first stage): the bases the adaptmr-over-bm25 / -over-hybrid claims compare with (method ids); default:
     * the first `bm25` method, and the first `strategy` method with `name: unified, firstStage: hybrid`.
     */
    bases: z.object({ bm25: z.string().optional(), hybrid: z.string().optional() }).strict().optional(),
    /**
     * Holm families of the experiment's claims (defaults per experiment, docs/statistics.md):
     *   primary    adaptmr-vs-baselines, beyond-benchmarks: the methods whose claims (vs unified, vs the strongest
     *              baseline) form the primary family; default every `adaptmr` method without gold-type routing.
     *              Every other comparison is exploratory (its own family).
     *   ablations  ablations: `sweep` (default) = one family of all ablations of a dataset × metric × type, across the
     *              sweep's variation runs; `run` = one per run (each ablation alone: no correction).
     *   transfer   router-transfer: `all` (default) = one family of every off-diagonal cell; `test-dataset` = one
     *              family per test dataset of its off-diagonal cells (the routers fitted elsewhere, tested there).
     */
    families: z
      .object({
        primary: z.array(z.string()).optional(),
        ablations: z.enum(['sweep', 'run']).default('sweep'),
        transfer: z.enum(['test-dataset', 'all']).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type PlanConfig = z.infer<typeof PlanConfigSchema>;
