/**
 * BEAM's dataset options (`datasets: [{ name: beam-100k, beam: { truncation: upstream } }]`, `Benchmark.datasetOptions`):
 * `truncation: full` (default) reads every chat whole; `upstream` reads each 100K chat as upstream's answer generation
 * does — shortened by upstream's rule (truncation.ts) where upstream ships a shorter chat — and reports every cut as a
 * data issue (`adaptmr data info`, the run's defect count); the option itself is in the run's stored config.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { DataIssue } from '../../src/core/dataset-records.ts';
import { BEAM_CHAT_FILE, type BeamRecord } from './load.ts';
import { truncateChat, UPSTREAM_TOKEN_LIMITS } from './truncation.ts';

export const BeamDatasetOptionsSchema = z
  .object({
    /** `upstream`: 100K chats cut by upstream's rule (126,000 Qwen 2.5 tokens); 500K chats stay whole, as upstream's. */
    truncation: z.enum(['full', 'upstream']).default('full'),
  })
  .strict();
export type BeamDatasetOptions = z.infer<typeof BeamDatasetOptionsSchema>;

type Batches = { turns: { role: string; content: string }[][] }[];

function isBatches(v: unknown): v is Batches {
  return Array.isArray(v) && v.every((b) => b !== null && typeof b === 'object' && Array.isArray(b.turns));
}

/** The record as the options read it: with `truncation: upstream`, a 100K chat cut by upstream's rule (the cut reported). */
export function withBeamOptions(record: BeamRecord, dir: string, options: unknown, issues: DataIssue[]): BeamRecord {
  const o = options as BeamDatasetOptions | undefined;
  const limit = UPSTREAM_TOKEN_LIMITS[record.tier];
  // A malformed chat is left to the reader, which names the bad field.
  if (o?.truncation !== 'upstream' || limit === undefined || !isBatches(record.messages)) return record;
  const cut = truncateChat(record.messages, limit);
  if (cut.kept === cut.total) return record;
  issues.push({
    file: join(dir, BEAM_CHAT_FILE),
    field: `${record.tier}/${record.chat}/${BEAM_CHAT_FILE}`,
    problem: `beam.truncation: upstream — cut to its first ${cut.kept} of ${cut.total} messages by upstream's rule (${limit.toLocaleString('en-US')} Qwen 2.5 tokens)`,
    action: 'dropped',
  });
  return { ...record, messages: cut.batches };
}
