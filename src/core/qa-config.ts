/**
 * The `qa:` block an experiment can carry to answer and judge questions (needs `llm.roles.reader`, and
 * `llm.roles.judge` for LLM-judge verdicts). Defaults follow the official protocols: LongMemEval's reader with
 * dates and no chain-of-note, one judge run, Mem0's habit of not judging LoCoMo category 5.
 * `judges` makes a judge panel (docs/qa-and-judges.md): every answer gets a verdict from each judge; the first is
 * the one the `accuracy` scores carry. Without it, `llm.roles.judge` is a one-judge panel with id `judge`.
 */
import { z } from 'zod';

/**
 * Judge prompts: `longmemeval` (LongMemEval's official type-specific prompts), `locomo` (the LoCoMo judge as Mem0
 * runs it), `strict` (this project's variant: a specific answer is required; src/eval/qa/prompts/strict-judge.ts).
 */
export const JUDGE_PROMPTS = ['longmemeval', 'locomo', 'strict'] as const;
export type JudgePromptKind = (typeof JUDGE_PROMPTS)[number];

/** The id the one-judge panel of a config without `qa.judges` has. */
export const DEFAULT_JUDGE_ID = 'judge';

/** A judge id: used in `--judge <id>:<model>[:<prompt>]`, so no colon; `all` names Fleiss' kappa rows. */
export const JudgeIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, _ . -')
  .refine((id) => id !== 'all', '"all" is reserved (it names the whole panel in judge_agreement)');

export const JudgeSpecSchema = z
  .object({
    id: JudgeIdSchema,
    /** The judge model, sent to the endpoint of `llm.roles.judge` (its key, settings and cache). */
    model: z.string().min(1),
    /** Default: the dataset's official prompt (LongMemEval's for LongMemEval, Mem0's LoCoMo judge for LoCoMo). */
    prompt: z.enum(JUDGE_PROMPTS).optional(),
  })
  .strict();
export type JudgeSpec = z.infer<typeof JudgeSpecSchema>;

export const ProbesConfigSchema = z
  .object({
    /** Questions per AdaptMR type (stratified, seeded) that get known-wrong probe answers. */
    perType: z.number().int().positive(),
    seed: z.number().int().optional(),
    /**
     * `rules`: generated offline by the project's rules (src/eval/qa/probes); `audit`: on LoCoMo, the
     * dial481/locomo-audit probe answers (other datasets still use the rules).
     */
    source: z.enum(['rules', 'audit']).default('rules'),
  })
  .strict();
export type ProbesConfig = z.infer<typeof ProbesConfigSchema>;

export const QaConfigSchema = z
  .object({
    reader: z
      .object({
        /** LongMemEval's `con` reading (step-by-step extraction then reasoning). */
        chainOfNote: z.boolean().default(false),
        /** `method`: the method's own context text; `official`: re-rendered in LongMemEval's session layout. */
        context: z.enum(['method', 'official']).default('method'),
        withDates: z.boolean().default(true),
        order: z.enum(['method', 'chronological']).default('method'),
        /** With `context: official`: session content as the official `json` (default), `nl`, or the unit `text`. */
        historyFormat: z.enum(['json', 'nl', 'text']).default('json'),
        /**
         * Questions with choices (`Query.choices`): `letter` asks the benchmark's multiple-choice prompt and scores the
         * letter exactly, without a judge; `free-form` asks the question alone and has the answer judged.
         */
        choices: z.enum(['letter', 'free-form']).default('letter'),
        /**
         * The reader's context-token budget (o200k_base), the same for every method: a rendered memory longer than
         * this is cut to its first `contextTokens` tokens before the reader sees it (src/eval/qa/context-budget.ts;
         * the fairness contract, docs/memory-servers.md). Unset: no budget.
         */
        contextTokens: z.number().int().positive().optional(),
      })
      .strict()
      .default({
        chainOfNote: false,
        context: 'method',
        withDates: true,
        order: 'method',
        historyFormat: 'json',
        choices: 'letter',
      }),
    judge: z
      .object({
        /** Judge runs per question; > 1 reports mean ± sd. */
        repeats: z.number().int().positive().default(1),
        /** Also judge LoCoMo category 5 (Mem0 skips it). */
        judgeAdversarial: z.boolean().default(false),
      })
      .strict()
      .default({ repeats: 1, judgeAdversarial: false }),
    /** A judge panel; the first judge is the primary one (its verdicts are the `accuracy` scores). */
    judges: z
      .array(JudgeSpecSchema)
      .nonempty()
      .refine((js) => new Set(js.map((j) => j.id)).size === js.length, 'each judge id once')
      .optional(),
    /** Leniency probes: known-wrong answers judged alongside the real ones, for each judge's acceptance rate. */
    probes: ProbesConfigSchema.optional(),
    /**
     * QA at several retrieval cutoffs from one retrieval: each method that returns units retrieves once at the
     * largest cutoff (its k is set to it), and the reader reads the top `c` units for every `c` here (answers in
     * `cutoff_answers`, accuracy in `scores` with `k = c`). Methods that return text (full context, memory systems)
     * are read once, as without `ks`.
     */
    ks: z
      .array(z.number().int().positive())
      .min(1)
      .refine((ks) => new Set(ks).size === ks.length, 'cutoffs must be distinct')
      .optional(),
  })
  .strict();
export type QaConfig = z.infer<typeof QaConfigSchema>;
