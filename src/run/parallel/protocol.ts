/**
 * Messages between the runner (the results file's single writer) and its compute workers. A worker gets its
 * experiment and dataset in `WorkerInit` and boots (modules, methods) while the runner opens the results file; then
 * `start` says what the file already holds, and the worker takes work (folder files by a shared counter, or records
 * the runner posts) and sends back each question's rows. Two shared counters bound memory: the next folder file to claim, and the
 * batches sent but not yet committed (a worker waits when the writer falls behind).
 */
import type { ExperimentConfig } from '../../core/config.ts';
import type { DataIssue, DatasetSource } from '../../data/index.ts';
import type { WordVectorsSlot } from '../../index/index.ts';
import type { QuestionBatch } from '../../store/types.ts';
import type { FailedStage } from '../record/failures.ts';

export interface WorkerInit {
  config: ExperimentConfig;
  /** The experiment file (for error messages) and its config hash (methods namespace by it). */
  path: string;
  configHash: string;
  runId: string;
  source: DatasetSource;
  /** Folder layouts: the files to read, claimed one at a time through `nextFile`; absent for array files. */
  files: string[] | undefined;
  selected: string[];
  /** Int32[1]: index of the next folder file to claim (Atomics.add). */
  nextFile: SharedArrayBuffer;
  /** Int32[1]: batches sent by all workers and not yet written; workers pause at `maxUnwritten`. */
  unwritten: SharedArrayBuffer;
  maxUnwritten: number;
  /** The wink word vectors, read once into shared memory by the first worker that embeds (wink-sif runs only). */
  wordVectors?: WordVectorsSlot;
}

/**
 * Runner → worker. `init` first, only to a worker started before the experiment was read (the others get their
 * `WorkerInit` as workerData). `start` comes once the results file is open — workers boot (load modules, build
 * methods) while the runner opens it — or at once when there is no results file yet (nothing can be done). Then, for array files, each raw record (its JSON bytes) and the end of the
 * records.
 */
export type ToWorker =
  | { type: 'init'; init: WorkerInit }
  | { type: 'start'; done: string[]; retry: string[] }
  | { type: 'record'; bytes: Uint8Array; file: string; index: number }
  | { type: 'end' };

/** What the runner knows only once the results file is open. */
export interface WorkerStart {
  /** Question × method keys already in the results file. */
  done: string[];
  /** Keys whose error rows are computed again and replaced (resume with retried errors). */
  retry: string[];
}

/** Worker → runner. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'batch'; batch: QuestionBatch; failed: FailedStage[] }
  | { type: 'skipped' }
  /** A posted record is processed (the runner's read-ahead credit). */
  | { type: 'record-done' }
  | { type: 'done'; issues: DataIssue[] }
  | { type: 'failed'; message: string; input: boolean };
