/**
 * The experiment config (experiments/*.yaml): a strict zod schema, so a typo names the field and the file.
 * `scripts/export-schema.ts` turns it into a JSON Schema for editors. Component options are checked again
 * against each registry entry's own schema when the run resolves its components (src/run/runner.ts).
 */
import { z } from 'zod';
import { LlmConfigSchema } from './llm-config.ts';
import { QaConfigSchema } from './qa-config.ts';
import { IndexSpecSchema } from './index-spec.ts';
import { GranularitySchema } from './types.ts';
import { datasetEntry, datasetNames, pathFormats } from './benchmarks-installed.ts';
import { unknownName } from './registry.ts';
import { PlanConfigSchema, StatsConfigSchema } from './stats-config.ts';

export { IndexSpecSchema };

/** The official LongMemEval cut-offs (`src/retrieval/eval_utils.py`), the default of every experiment. */
/**
 * Default `run.maxFailureShare`: research numbers from a run where more than one question in twenty has no result
 * are not the numbers of the experiment as configured.
 */
export const DEFAULT_MAX_FAILURE_SHARE = 0.05;

export const DEFAULT_KS = [1, 3, 5, 10, 30, 50] as const;

/**
 * A config's dataset name: one of the installed benchmarks' datasets (src/core/benchmarks-installed.ts, from
 * src/run/benchmark-registry.ts); a typo fails with "did you mean".
 */
export const DatasetNameSchema = z.string().superRefine((name, ctx) => {
  const known = datasetNames();
  if (!known.includes(name)) ctx.addIssue({ code: 'custom', message: unknownName('dataset', name, known) });
});
export type DatasetName = string;

export const SampleSchema = z
  .object({
    /** Questions drawn per AdaptMR type (stratified); types with fewer keep all. */
    perType: z.number().int().positive(),
    seed: z.number().int().optional(),
  })
  .strict();

/** Some fields of an index spec, no defaults: what a dataset entry changes in its methods' indexes. */
export const IndexPatchSchema = z
  .object({
    granularity: GranularitySchema.optional(),
    roles: z
      .array(z.enum(['user', 'assistant']))
      .nonempty()
      .optional(),
    includeCaptions: z.boolean().optional(),
    speakerPrefix: z.boolean().optional(),
    keepEmpty: z.boolean().optional(),
  })
  .strict();

/** One method's settings on one dataset: merged onto the method's own (src/core/dataset-methods.ts). */
export const DatasetMethodPatchSchema = z
  .object({
    index: IndexPatchSchema.optional(),
    /** Deep-merged onto the method's options: objects key by key, arrays and scalars replace. */
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const DatasetCommon = {
  sample: SampleSchema.optional(),
  /** Keep only these question ids (e.g. to reproduce a case study). */
  questionIds: z.array(z.string()).optional(),
  /** Keep the first N questions (after sorting by id); for smoke runs. */
  limit: z.number().int().positive().optional(),
  /**
   * Memory units of every method on this dataset, merged onto each method's `index` (e.g. LoCoMo as turns with the
   * speaker's name while LongMemEval keeps the official sessions, in one run).
   */
  index: IndexPatchSchema.optional(),
  /**
   * Per-method settings on this dataset only, by method id (applied after `index`): e.g. an abstention threshold
   * file calibrated on this dataset, or a classifier model never trained on its questions.
   */
  methods: z.record(z.string(), DatasetMethodPatchSchema).optional(),
};

/**
 * Which gold answers a LoCoMo or LongMemEval run judges against: `original` (the dataset as released) or `errata`
 * (LoCoMo: the dial481/locomo-audit corrections; LongMemEval: the pinned overlay src/data/longmemeval-errata.ts;
 * applied by question; both versions are then judged and reported, the errata version in the `accuracy` scores).
 * docs/qa-and-judges.md.
 */
export const GoldConfigSchema = z
  .object({
    answers: z.enum(['original', 'errata']).default('original'),
    /**
     * Knowledge updates that name the superseded evidence (a dataset with `updateGold`, src/core/benchmark.ts):
     * `current` (default) — only the evidence of the new value is retrieval gold; `both` — the superseded evidence
     * too. Either way the superseded evidence is what `stale_above` asks about (src/data/supersession.ts,
     * docs/datasets.md §4.6).
     */
    update: z.enum(['current', 'both']).optional(),
  })
  .strict();
export type GoldConfig = z.infer<typeof GoldConfigSchema>;

/** The format of a user-given path: a benchmark whose files may be given as a path (`pathFormat`), "did you mean" else. */
const PathFormatSchema = z.string().superRefine((format, ctx) => {
  const known = pathFormats();
  if (!known.includes(format)) ctx.addIssue({ code: 'custom', message: unknownName('format', format, known) });
});

/** A named, known dataset, or any file/folder in a benchmark's format ("bring your own data"). */
const NAMED_KEYS = new Set(['name', 'gold', ...Object.keys(DatasetCommon)]);

/**
 * A named dataset's keys besides the common ones: only its benchmark's own (`datasets: [{ name, <benchmark>: {…} }]`),
 * checked with that benchmark's `datasetOptions` schema; anything else is an unknown key, as a strict object says.
 */
function benchmarkOptions(d: Record<string, unknown> & { name: string }, ctx: z.RefinementCtx): void {
  const benchmark = datasetEntry(d.name)?.benchmark;
  for (const key of Object.keys(d)) {
    if (NAMED_KEYS.has(key)) continue;
    if (key !== benchmark?.name || !benchmark.datasetOptions) {
      ctx.addIssue({ code: 'unrecognized_keys', keys: [key], input: d });
      continue;
    }
    const parsed = benchmark.datasetOptions.safeParse(d[key]);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path.map(String)] });
  }
}

export const DatasetRefSchema = z.union([
  z
    .object({ name: DatasetNameSchema, ...DatasetCommon, gold: GoldConfigSchema.optional() })
    .catchall(z.unknown())
    .superRefine(benchmarkOptions)
    .refine(
      (d) =>
        d.gold === undefined || d.gold.answers === 'original' || datasetEntry(d.name)?.dataset.answerErrata === true,
      {
        message:
          'gold.answers: errata exists for LoCoMo (the audit) and LongMemEval (src/data/longmemeval-errata.ts) only',
        path: ['gold'],
      },
    )
    .refine((d) => d.gold?.update === undefined || datasetEntry(d.name)?.dataset.updateGold === true, {
      error: () =>
        `gold.update applies only to a dataset whose knowledge updates name the superseded message (${datasetNames()
          .filter((n) => datasetEntry(n)?.dataset.updateGold)
          .join(', ')})`,
      path: ['gold', 'update'],
    }),
  z
    .object({
      format: PathFormatSchema,
      path: z.string(),
      /** Name used in results; defaults to the file name. Never a known dataset's name: that would label a custom
       * file as the official dataset. */
      name: z
        .string()
        .refine((n) => !datasetNames().includes(n), 'is the name of a known dataset; give your file another name')
        .optional(),
      ...DatasetCommon,
    })
    .strict(),
]);
export type DatasetRef = z.infer<typeof DatasetRefSchema>;

export const ComponentRefSchema = z
  .object({
    name: z.string(),
    options: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type ComponentRef = z.infer<typeof ComponentRefSchema>;

export const MethodConfigSchema = z
  .object({
    /** Label in results; must be unique within the experiment. */
    id: z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'use letters, digits, _ . : -'),
    /** Registry name of the method (`bm25`, `unified-embedding`, …). */
    method: z.string(),
    index: IndexSpecSchema.prefault({}),
    /** Units returned (the retrieval budget); the same for every compared method. */
    k: z.number().int().positive().default(50),
    options: z.record(z.string(), z.unknown()).default({}),
    /**
     * A memory-system method (http-memory, mcp-memory, mem0, zep) run n times, each replicate ingesting and searching
     * its own namespaces: expanded at load into methods `<id>:r1` … `<id>:rn` (src/run/config/replicates.ts).
     */
    replicates: z.number().int().positive().max(100).optional(),
    /** Set by that expansion (the replicate's number); not written by hand. */
    replicate: z.number().int().positive().optional(),
  })
  .strict();
export type MethodConfig = z.infer<typeof MethodConfigSchema>;

export const ExperimentConfigSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, _ . -'),
    description: z.string().optional(),
    /** Where datasets live; `--data-dir` and ADAPTMR_DATA_DIR take precedence. */
    dataDir: z.string().optional(),
    /** Download datasets that are missing from the data directory (named datasets only). */
    pull: z.boolean().default(false),
    seed: z.number().int().default(42),
    datasets: z.array(DatasetRefSchema).nonempty(),
    embedder: ComponentRefSchema.default({ name: 'wink-sif', options: {} }),
    methods: z.array(MethodConfigSchema).nonempty(),
    metrics: z
      .object({
        ks: z
          .array(z.number().int().positive().max(100_000))
          .nonempty()
          .max(64, 'at most 64 cut-offs')
          .refine((ks) => new Set(ks).size === ks.length, 'each k once (a repeated k would count every question twice)')
          .default([...DEFAULT_KS]),
        /**
         * Which units count as relevant (src/eval/retrieval-gold.ts): `official` = LongMemEval's rule (gold turns
         * among the indexed turns, and their sessions); `evidence` = every labelled evidence id.
         */
        gold: z.enum(['official', 'evidence']).default('official'),
      })
      .strict()
      .prefault({}),
    /**
     * Store each retrieval's rendered context text in the results file. Off by default: at k = 1000 it is
     * ~250 KB per question and method; `adaptmr explain` re-renders it on demand. A run with a reader stores the
     * context it actually gave the reader either way.
     */
    storeContext: z.boolean().default(false),
    /**
     * Build each haystack's BM25 and unit embeddings (recorded as stage `index:memorise`), then each method's own
     * memory writing (`Method.memorise`: unit text keys, notes, the rendered history; stage `memorise`), before any
     * method is timed, so per-question latency is the method's work from query to answer and no method carries what
     * another built first; for timing experiments (exp 5).
     */
    prepareIndex: z.boolean().optional(),
    /**
     * Time each question's retrieval this many times in a row (plan experiment 5: ≥ 3): the first run's output is
     * kept, the stored latency is the median of the repeats and `notes.timingMs` lists them, so one stall of a busy
     * machine does not become the question's latency. Only methods that are pure computation repeat (no LLM role, no
     * memorising, no own answers); the others are timed once. A run with repeats computes in one thread.
     */
    timingRepeats: z.number().int().min(1).max(20).optional(),
    /** Questions processed at once. */
    concurrency: z.number().int().positive().default(2),
    /** LLM endpoints per role (reader, judge, classifier, strategy), cache, limits and prices (src/llm). */
    llm: LlmConfigSchema.optional(),
    /** Answer each question with a reader and score it (judge, F1, BLEU-1); needs `llm.roles.reader`. */
    qa: QaConfigSchema.optional(),
    /** Bootstrap CIs and paired comparisons of the results file (src/core/stats-config.ts); not part of the run's identity. */
    stats: StatsConfigSchema.optional(),
    /** Which of the plan's five experiments this is, for its section in `adaptmr report`; not part of the run's identity. */
    plan: PlanConfigSchema.optional(),
    /** How the run judges itself; not part of the run's identity. */
    run: z
      .object({
        /**
         * `adaptmr run` exits non-zero when more than this share of the questions (0–1) still has an error row after
         * the run (any method; retrieval, classifier, memorising, reader or judge). `--max-failure-share` overrides.
         */
        maxFailureShare: z.number().min(0).max(1).default(DEFAULT_MAX_FAILURE_SHARE),
      })
      .strict()
      .prefault({}),
  })
  .strict();
export type ExperimentConfig = z.infer<typeof ExperimentConfigSchema>;
