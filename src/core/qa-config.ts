/**
 * The `qa:` block an experiment can carry to answer and judge questions (needs `llm.roles.reader`, and
 * `llm.roles.judge` for LLM-judge verdicts). Defaults follow the official protocols: LongMemEval's reader with
 * dates and no chain-of-note, one judge run, Mem0's habit of not judging LoCoMo category 5.
 */
import { z } from 'zod';

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
      })
      .strict()
      .default({ chainOfNote: false, context: 'method', withDates: true, order: 'method', historyFormat: 'json' }),
    judge: z
      .object({
        /** Judge runs per question; > 1 reports mean ± sd. */
        repeats: z.number().int().positive().default(1),
        /** Also judge LoCoMo category 5 (Mem0 skips it). */
        judgeAdversarial: z.boolean().default(false),
      })
      .strict()
      .default({ repeats: 1, judgeAdversarial: false }),
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
