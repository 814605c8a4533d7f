/**
 * The LongMemEval files `adaptmr data pull` fetches: one file per split from the Hugging Face dataset
 * `xiaowu0162/longmemeval-cleaned`, at the asked revision (default `main`) resolved to its commit.
 */
import type { HubFile } from '../../src/core/benchmark.ts';

export const LONGMEMEVAL_REPO = 'xiaowu0162/longmemeval-cleaned';

/** The pin of a split's file (`longmemeval_<stem>.json`, in `longmemeval/` of the data directory). */
export function longMemEvalPin(stem: string): HubFile {
  const file = `longmemeval_${stem}.json`;
  return { kind: 'hf-dataset-file', repo: LONGMEMEVAL_REPO, file, localPath: `longmemeval/${file}` };
}
