/**
 * The `stats:` and `plan:` blocks of an experiment config (issue 12). Neither changes what a run computes, so both
 * are left out of the run's identity (src/run/load-config.ts): adding them to an existing experiment resumes it.
 *   stats — how the results file's statistics are computed (bootstrap CIs of every scores_by_type cell; paired
 *           comparisons of every method against a reference, Holm-corrected within a family); src/eval/stats.
 *   plan  — which of the AdaptMR plan's five experiments (seeds/004 §3.4) the file is, so `adaptmr report` prints
 *           that experiment's section and chart.
 */
import { z } from 'zod';

export const STATS_DEFAULTS = { resamples: 2000, ci: 'bca', confidence: 0.95, cluster: 'auto', family: 'metric-type', continuousTest: 'sign-flip' } as const;

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

export const PLAN_EXPERIMENTS = ['existing-systems', 'oracle-upper-bound', 'adaptmr-vs-baselines', 'ablations', 'efficiency', 'beyond-benchmarks', 'router-transfer'] as const;

const PlanLevelSchema = z.enum(['session', 'turn', 'qa']);

export const PlanConfigSchema = z
  .object({
    /** Which of the plan's five experiments this file is (its section in `adaptmr report`). */
    experiment: z.enum(PLAN_EXPERIMENTS),
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
     * (default ndcg_any@10 at turn level), e.g. `{ zh: memdaily, en: beam-100k }`.
     */
    languages: z
      .object({ zh: z.string(), en: z.string(), metric: z.string().optional(), level: PlanLevelSchema.optional(), k: z.number().int().positive().optional() })
      .strict()
      .optional(),
    /** router-transfer: the benchmark each transferred method's classifier and thresholds were fitted on, by method id. */
    transfer: z.record(z.string(), z.string()).optional(),
  })
  .strict();
export type PlanConfig = z.infer<typeof PlanConfigSchema>;
