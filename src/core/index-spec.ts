/**
 * How a haystack is cut into memory units (docs/design.md §2 "memory unit"), declared once: the strict config schema and
 * the type every component uses derive from the same object. Methods with equal specs share one index per haystack.
 */
import { z } from 'zod';
import { GranularitySchema } from './types.ts';

export const IndexSpecSchema = z
  .object({
    granularity: GranularitySchema.default('session'),
    /** Which roles' turns are indexed (the official LongMemEval retrieval indexes user turns only). */
    roles: z
      .array(z.enum(['user', 'assistant']))
      .nonempty()
      .default(['user', 'assistant']),
    /** LoCoMo image turns: append the BLIP caption to the turn text. */
    includeCaptions: z.boolean().default(true),
    /** Prefix turn text with the speaker's name (LoCoMo); helps BM25 on "What did Caroline…" questions. */
    speakerPrefix: z.boolean().default(false),
    /** Keep units with empty text (the official LongMemEval index does; they shift BM25's N and avgdl). */
    keepEmpty: z.boolean().default(false),
  })
  .strict();

type ParsedIndexSpec = z.output<typeof IndexSpecSchema>;

/** A parsed spec; the two switches that default to false may be left out when a spec is built in code. */
export type IndexSpec = Omit<ParsedIndexSpec, 'roles' | 'speakerPrefix' | 'keepEmpty'> & {
  roles: ParsedIndexSpec['roles'][number][];
  speakerPrefix?: boolean;
  keepEmpty?: boolean;
};
