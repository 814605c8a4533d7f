/**
 * The closed-book control: the reader gets the question with no memory at all — no unit, an empty history — so a QA
 * gain of any method over it can be attributed to its memory. Bench'd, AMB and LongMemEval-V2 report such a row;
 * LongMemEval's own reader prompt is used unchanged, its history part left empty (src/eval/qa/reader.ts).
 *
 * It returns no units and does not rank, so it has no retrieval metrics (n/a, as full context), and it does not claim
 * the memory holds nothing relevant (`noMemory: false`): the "No relevant memory" line is an abstention signal of a
 * retrieving method, not part of the closed-book condition. It never reads the index.
 */
import { z } from 'zod';
import type { Method } from '../../src/core/interfaces.ts';
import { defineMethod } from '../../src/core/method-entry.ts';

export const NoMemoryOptionsSchema = z.object({}).strict();

export function createNoMemoryMethod(): Method {
  return {
    capabilities: { output: 'units', ranks: false },
    async run() {
      return { retrieval: { units: [], noMemory: false, context: '' } };
    },
  };
}

export const noMemoryEntry = defineMethod({
  name: 'no-memory',
  description: 'Closed-book control: the question goes to the reader with no memory (empty history); no retrieval',
  optionsSchema: NoMemoryOptionsSchema,
  examples: [
    {
      label: 'defaults',
      options: {},
      exempt: { failure: 'reads neither the index nor an LLM: nothing it depends on can fail' },
    },
  ],
  create: () => createNoMemoryMethod(),
});
