/**
 * Writes classifier evaluations into a results file, opening (and when new, creating) it: the entry point of
 * `adaptmr classify eval` and the classifier benchmark. The rows themselves are built in classifier-eval.ts.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EvalResult } from './classifier-eval-types.ts';
import { openResultStore } from './open-store.ts';

/** Writes evaluations into a results file (created with the full schema when new), one transaction each. */
export async function writeEvalResults(file: string, results: readonly EvalResult[]): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const store = await openResultStore(file);
  try {
    await store.writeClassifierEvals(results);
  } finally {
    await store.close();
  }
}
