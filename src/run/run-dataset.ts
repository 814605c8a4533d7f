/**
 * One dataset of a run, question by question: stream the selected questions, run every method not yet done on each
 * (`computeQuestion`), and hand each question's rows to the store (`writeQuestion`, group-committed). In this
 * process with a p-limit pool, or — when every method is pure computation — in worker threads (parallel/), which
 * run the same `computeQuestion` and send the rows back to this thread, the results file's single writer.
 */
import pLimit from 'p-limit';
import type { ExperimentConfig } from '../core/config.ts';
import { isPostponed } from '../core/errors.ts';
import type { Checkpoints } from '../core/interfaces.ts';
import type { LlmProvider } from '../core/llm.ts';
import { answerErratum, goldVersionRows, type DatasetJudging } from './judging/judging.ts';
import type { Erratum } from '../data/locomo-audit.ts';
import type { Instance } from '../core/types.ts';
import {
  instancesOfRecord,
  readInstances,
  type DataIssue,
  type DatasetSource,
  type ParseOptions,
  type RawRecord,
} from '../data/index.ts';
import { completedKey, type QuestionBatch, type QuestionSink } from '../store/types.ts';
import type { ConfiguredMethod } from './methods/create-methods.ts';
import type { FailedStage } from './record/failures.ts';
import type { IndexCache } from './index-cache.ts';
import type { PaidCallLedger } from './spend/paid-calls.ts';
import type { Progress } from './record/progress.ts';
import { emptyBatch, runMethod } from './question.ts';
import { loadBenchmark } from './benchmark-registry.ts';

export interface DatasetPlan {
  source: DatasetSource;
  selected: Set<string>;
  /** LoCoMo errata by question id, when the dataset entry asks for `gold: { answers: errata }`. */
  errata?: ReadonlyMap<string, Erratum>;
  /** Folder layouts: the files holding the selected questions, so no other file is opened. */
  files?: ReadonlySet<string>;
  /** `--allow-unlocked`: how the files differ from the lock file (recorded in the run's provenance). */
  unlocked?: string[];
}

/**
 * What no method of a dataset can read, so the reader skips it undecoded: the text of assistant turns when no
 * method's index includes that role (the official BM25 setup indexes user turns only). Methods see only the memory
 * index's units, which are built from the indexed roles, so their results cannot change (data/json-elide.ts).
 */
export function unreadData(methods: readonly ConfiguredMethod[]): ParseOptions {
  return methods.length > 0 && methods.every((m) => !m.index.roles.includes('assistant'))
    ? { elideContentOfRole: 'assistant' }
    : {};
}

/** What computing a question needs; the worker threads build their own from the same config. */
export interface ComputeState {
  config: ExperimentConfig;
  runId: string;
  methods: ConfiguredMethod[];
  /** Question × method keys already in the results file (resume). */
  done: Set<string>;
  /** Keys not in `done` whose rows in the file are errors: computed again, their rows replaced (`batch.replaces`). */
  retry?: ReadonlySet<string> | undefined;
  indexes: IndexCache;
  llm: LlmProvider | undefined;
  checkpoints?: ((methodId: string) => Checkpoints) | undefined;
  /** Durable accounting of paid calls (this process only: worker threads run LLM-free methods). */
  ledger?: PaidCallLedger | undefined;
  /** The judge panel and gold versions of the dataset (QA with a judge; this process only). */
  judging?: DatasetJudging | undefined;
}

/** What this invocation did: questions written or skipped, failed (question, method) results and their stages. */
export interface RunCounters {
  written: number;
  skipped: number;
  /** (question, method) results that failed at any stage. */
  errors: number;
  failures: Record<FailedStage, number>;
  /** Questions left unwritten by the last pass (waiting for the Batch API, or stopped by the budget). */
  postponed?: number;
}

/** Adds one question's failed stages to the counters. */
export function countFailures(counters: RunCounters, failed: readonly FailedStage[]): void {
  counters.errors += failed.length;
  for (const stage of failed) counters.failures[stage]++;
}

export interface DatasetRunState extends ComputeState {
  store: QuestionSink;
  progress: Progress;
  counters: RunCounters;
  issues: DataIssue[];
  concurrency: number;
  onWritten: (dataset: string, questionId: string) => void;
  /**
   * True once the run is to start no new question (a signal: interrupt.ts; or its LLM budget is spent: budget.ts);
   * those in flight finish.
   */
  stopping?: () => boolean;
}

/** In this process: a p-limit pool over the streamed questions with bounded read-ahead. */
export async function runDatasetInProcess(plan: DatasetPlan, s: DatasetRunState): Promise<void> {
  const limit = pLimit(s.concurrency);
  const inflight = new Set<Promise<void>>();
  const computing = new Set<Promise<unknown>>();
  let failure: unknown;
  const stream = readInstances(plan.source, {
    keep: (c) => plan.selected.has(c.questionId),
    issues: s.issues,
    parse: unreadData(s.methods),
    ...(plan.files ? { files: plan.files } : {}),
  });
  for await (const instance of stream) {
    if (!plan.selected.has(instance.query.id)) continue;
    if (failure || s.stopping?.()) break;
    // Only the computation holds a concurrency slot; the write waits in the store's group-commit queue, so the
    // next questions are computed while a commit is under way. A question still queued when the run is told to stop
    // is not started: it is counted as postponed, for the resume.
    const computed = limit(async () => {
      // Stopped while this question waited for a slot (a signal, or the LLM budget spent): it is left for the
      // resume, like a postponed one.
      if (s.stopping?.()) return { batch: undefined, failed: [], postponed: 1 };
      const c = await computeQuestion(instance, plan.source.format, s);
      if (c.batch) countFailures(s.counters, c.failed);
      return c;
    });
    computing.add(computed);
    void computed.catch(() => undefined).finally(() => computing.delete(computed));
    const task: Promise<void> = computed
      .then((c) => (c.batch ? writeQuestion(c.batch, s) : c.postponed > 0 ? postponeQuestion(s) : skipQuestion(s)))
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => inflight.delete(task));
    inflight.add(task);
    // Bounded read-ahead keeps memory flat on large splits (LongMemEval M).
    if (inflight.size >= s.concurrency * 16) await Promise.race(inflight);
  }
  // Every question computed: commit what is queued now rather than after the group-commit wait.
  await Promise.allSettled([...computing]);
  s.store.commitQueued();
  await Promise.all(inflight);
  if (failure) throw failure;
}

/**
 * Runs every method not yet done on one question: the batch of rows to write and the stages of the methods that failed, or no
 * batch when the results file already has them all.
 */
export async function computeQuestion(
  instance: Instance,
  protocol: DatasetSource['format'],
  s: ComputeState,
): Promise<{ batch: QuestionBatch | undefined; failed: FailedStage[]; postponed: number }> {
  const todo = s.methods.filter((m) => !s.done.has(completedKey(instance.dataset, instance.query.id, m.id)));
  if (todo.length === 0) return { batch: undefined, failed: [], postponed: 0 };
  const batch = emptyBatch(instance, s.runId);
  const gold = goldVersionRows(instance, answerErratum(s.judging, instance));
  if (gold.length > 0) batch.goldVersions = gold;
  const replaces = todo
    .filter((m) => s.retry?.has(completedKey(instance.dataset, instance.query.id, m.id)))
    .map((m) => m.id);
  if (replaces.length > 0) batch.replaces = replaces;
  const context = {
    config: s.config,
    runId: s.runId,
    indexes: s.indexes,
    llm: s.llm,
    protocol,
    qa: s.config.qa ? (await loadBenchmark(protocol)).qa : undefined,
    checkpoints: s.checkpoints,
    ledger: s.ledger,
    judging: s.judging,
  };
  const failed: FailedStage[] = [];
  let postponed = 0;
  for (const method of todo) {
    const mark = {
      retrievals: batch.retrievals.length,
      scores: batch.scores.length,
      answers: batch.answers!.length,
      cutoffs: batch.cutoffAnswers?.length ?? 0,
    };
    try {
      const stage = await runMethod(instance, method, batch, context);
      if (stage !== undefined) failed.push(stage);
    } catch (err) {
      if (!isPostponed(err)) throw err;
      // A call of this method waits for the Batch API or the budget: its rows are left out, to be written by a later
      // pass or run (the calls it paid for are recorded already; they come from the LLM cache then).
      postponed++;
      batch.retrievals.length = mark.retrievals;
      batch.scores.length = mark.scores;
      batch.answers!.length = mark.answers;
      if (batch.cutoffAnswers) batch.cutoffAnswers.length = mark.cutoffs;
      if (batch.replaces) batch.replaces = batch.replaces.filter((m) => m !== method.id);
    }
  }
  if (batch.retrievals.length === 0) return { batch: undefined, failed, postponed };
  return { batch, failed, postponed };
}

/**
 * The selected questions of one raw record, each computed (`computeQuestion`) — the loop the worker threads and the
 * runner's own thread (parallel/) share. `beforeEach` runs before each question is computed (a worker waits there
 * while the writer is behind).
 */
export async function* computeRecord(
  source: DatasetSource,
  record: RawRecord,
  selected: ReadonlySet<string>,
  s: ComputeState,
  issues: DataIssue[],
  beforeEach: () => void = () => {},
): AsyncGenerator<{ batch: QuestionBatch | undefined; failed: FailedStage[] }> {
  for (const instance of instancesOfRecord(source, record, { keep: (c) => selected.has(c.questionId), issues })) {
    if (!selected.has(instance.query.id)) continue;
    beforeEach();
    const { batch, failed } = await computeQuestion(instance, source.format, s);
    yield { batch, failed };
  }
}

export async function writeQuestion(batch: QuestionBatch, s: DatasetRunState): Promise<void> {
  await s.store.writeQuestion(batch);
  s.counters.written++;
  s.onWritten(batch.question.dataset, batch.question.questionId);
  s.progress.tick();
}

export function skipQuestion(s: DatasetRunState): void {
  s.counters.skipped++;
  s.progress.tick();
}

/** A question none of whose remaining methods could finish now (postponed): written by a later pass or run. */
export function postponeQuestion(s: DatasetRunState): void {
  s.counters.postponed = (s.counters.postponed ?? 0) + 1;
  s.progress.tick();
}
