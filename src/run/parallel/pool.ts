/**
 * The runner's side of the compute workers: starts them (early, so they boot while the runner opens the results
 * file), feeds array-file records to them (folder files they claim themselves), writes every batch they send
 * through the store's group commit, and keeps the counters and progress. The first failure stops every worker and
 * is raised here: a data error keeps its one-line InputError form.
 */
import type { Worker } from 'node:worker_threads';
import { InputError } from '../../core/errors.ts';
import {
  headSelector,
  readSourceRecordsSync,
  refusedByHead,
  splitJsonArrayFile,
  type RawRecord,
} from '../../data/index.ts';
import {
  createWordVectorsSlot,
  embedders,
  useWordVectorsSlot,
  winkCachePath,
  type WordVectorsSlot,
} from '../../index/index.ts';
import type { QuestionBatch } from '../../store/types.ts';
import type { DatasetPlan, DatasetRunState } from '../run-dataset.ts';
import { computeRecord, countFailures, skipQuestion, unreadData, writeQuestion } from '../run-dataset.ts';
import type { FromWorker, ToWorker, WorkerInit } from './protocol.ts';
import { adoptWarmWorker, Mailbox, startWorker } from './spawn.ts';

/**
 * Whether the runner's thread computes questions beside the workers: for folder datasets it claims files from the
 * same counter they do. Its own share costs no thread start-up and no second copy of the modules and methods, and
 * its writes for the results file are only a small part of its time. (Array files: it splits the file for them.)
 */
export function runnerComputes(plan: DatasetPlan): boolean {
  return plan.source.kind === 'folder' && plan.files !== undefined;
}

/** Batches sent but not yet committed, across workers, before workers pause (bounds the rows held in memory). */
const MAX_UNWRITTEN = 256;
/** Array files: records posted to a worker and not yet processed (read-ahead per worker). */
const RECORDS_AHEAD = 2;

export interface WorkerRunOptions {
  workers: number;
  /** The experiment file and its config hash, which the workers rebuild the methods from. */
  path: string;
  configHash: string;
  /**
   * The results file does not exist yet, so nothing is done: the workers are told so (`start` with no keys) as soon
   * as they are started and compute while the runner records the run (in its row spool, or the new file); their rows
   * wait in the mailbox. `run` checks that the file, if opened, indeed holds nothing of this dataset.
   */
  freshResults?: boolean;
}

/** One shared copy of the wink vectors for all workers of a wink-sif run (shared-word-vectors.ts). */
function wordVectorsSlot(config: DatasetRunState['config']): WordVectorsSlot | undefined {
  if (config.embedder.name !== 'wink-sif') return undefined;
  const o = embedders.parseOptions(config.embedder.name, config.embedder.options) as { cacheDir?: string };
  return createWordVectorsSlot(winkCachePath(o.cacheDir));
}

/**
 * Compute workers for one dataset, started before the results file is open so their boot (modules, methods,
 * models: ~0.3 s) overlaps the runner's own set-up; `run` then tells them what the file holds and writes their rows.
 */
export interface WorkerPool {
  run(s: DatasetRunState): Promise<void>;
  /** Stops the workers without running them (the run failed before `run`). */
  stop(): Promise<void>;
}

export function startWorkerPool(
  plan: DatasetPlan,
  config: DatasetRunState['config'],
  runId: string,
  opts: WorkerRunOptions,
): WorkerPool {
  const files = plan.source.kind === 'folder' && plan.files ? [...plan.files].sort() : undefined;
  const unwritten = new Int32Array(new SharedArrayBuffer(4));
  const init: WorkerInit = {
    config,
    path: opts.path,
    configHash: opts.configHash,
    runId,
    source: plan.source,
    files,
    selected: [...plan.selected],
    nextFile: new SharedArrayBuffer(4),
    unwritten: unwritten.buffer as SharedArrayBuffer,
    maxUnwritten: MAX_UNWRITTEN,
  };
  const wordVectors = wordVectorsSlot(config);
  if (wordVectors) {
    init.wordVectors = wordVectors;
    // This thread computes questions too (folder datasets): it reads the vectors through the same slot.
    useWordVectorsSlot(wordVectors);
  }
  const mailboxes = Array.from(
    { length: opts.workers },
    (_, i) => (i === 0 ? adoptWarmWorker(init) : undefined) ?? new Mailbox(startWorker(init)),
  );
  if (opts.freshResults)
    for (const b of mailboxes) b.worker.postMessage({ type: 'start', done: [], retry: [] } satisfies ToWorker);
  return {
    stop: async () => {
      await Promise.all(mailboxes.map((b) => b.worker.terminate()));
    },
    run: (s) => new WorkerRun(mailboxes, plan, s, unwritten, files, init.nextFile, opts.freshResults === true).run(),
  };
}

/**
 * One dataset computed by the pool: the workers are told what is done, fed records (array files) or left to claim
 * files (folders, while this thread claims its own share), and every batch they send is written here. The first
 * failure — a worker's, a write's, this thread's — stops every worker and is raised once the writes in flight end.
 */
class WorkerRun {
  private readonly workers: Worker[];
  /** Array files: records posted to each worker and not yet processed. */
  private readonly pendingRecords: number[];
  private creditWaiter: (() => void) | undefined;
  private failure: Error | undefined;
  /** Question writes in flight, the workers' and this thread's. */
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly mailboxes: Mailbox[],
    private readonly plan: DatasetPlan,
    private readonly s: DatasetRunState,
    private readonly unwritten: Int32Array,
    private readonly files: string[] | undefined,
    private readonly nextFile: SharedArrayBuffer,
    /** The workers were told at their start that nothing is done (a new results file). */
    private readonly started: boolean,
  ) {
    this.workers = mailboxes.map((b) => b.worker);
    this.pendingRecords = this.workers.map(() => 0);
  }

  async run(): Promise<void> {
    const start = this.startMessage();
    if (this.started && start.done.length + start.retry.length > 0) {
      // Another process created the results file between the check and the open: what the workers computed may be in
      // it already. Stop before writing any of it rather than write a question twice.
      await Promise.all(this.workers.map((w) => w.terminate()));
      throw new InputError(
        'the results file appeared while this run was starting (another run writing it?); run again to resume',
        this.s.store.path,
      );
    }
    const finished = this.mailboxes.map((box, w) => this.listen(box, w));
    if (!this.started) for (const w of this.workers) w.postMessage(start);
    try {
      if (!this.files) await this.feedRecords();
      else if (runnerComputes(this.plan)) await this.computeHere(this.files);
      await Promise.all(finished);
      // Every question computed: commit what is queued now rather than after the group-commit wait.
      this.s.store.commitQueued();
      await Promise.all(this.writes);
    } finally {
      if (this.failure) await Promise.all(this.workers.map((w) => w.terminate()));
    }
    if (this.failure) throw this.failure;
  }

  /** What the results file holds of this dataset: done keys, and error rows to compute again. */
  private startMessage(): Extract<ToWorker, { type: 'start' }> {
    const prefix = `${this.plan.source.name}\t`;
    return {
      type: 'start',
      done: [...this.s.done].filter((k) => k.startsWith(prefix)),
      retry: [...(this.s.retry ?? [])].filter((k) => k.startsWith(prefix)),
    };
  }

  private fail(err: unknown): void {
    this.failure ??= err instanceof Error ? err : new Error(String(err));
    this.creditWaiter?.();
  }

  /** Resolves when worker `w` exits (a non-zero exit is a failure). */
  private listen(box: Mailbox, w: number): Promise<void> {
    return new Promise<void>((resolve) => {
      box.listen((e) => {
        if (e.kind === 'message') this.onMessage(e.m, w);
        else if (e.kind === 'error') this.fail(e.err);
        else {
          if (e.code !== 0) this.fail(new Error(`compute worker exited with code ${e.code}`));
          this.creditWaiter?.();
          resolve();
        }
      });
    });
  }

  private onMessage(m: FromWorker, w: number): void {
    switch (m.type) {
      case 'batch': {
        countFailures(this.s.counters, m.failed);
        // The worker's count of unwritten batches goes down once this one is written (it pauses above MAX_UNWRITTEN).
        this.write(m.batch).finally(() => {
          Atomics.sub(this.unwritten, 0, 1);
          Atomics.notify(this.unwritten, 0);
        });
        break;
      }
      case 'skipped':
        skipQuestion(this.s);
        break;
      case 'record-done':
        this.pendingRecords[w]!--;
        this.creditWaiter?.();
        break;
      case 'done':
        this.s.issues.push(...m.issues);
        break;
      case 'failed':
        this.fail(m.input ? new InputError(m.message) : new Error(`compute worker failed: ${m.message}`));
        break;
      case 'ready':
        break;
    }
  }

  /** Writes a question through the store's group commit; settles (never rejects) once it is written or failed. */
  private write(batch: QuestionBatch): Promise<void> {
    const p: Promise<void> = writeQuestion(batch, this.s)
      .catch((err: unknown) => this.fail(err))
      .finally(() => this.writes.delete(p));
    this.writes.add(p);
    return p;
  }

  /** Folder files: this thread claims files from the workers' counter and writes its own questions directly. */
  private async computeHere(list: string[]): Promise<void> {
    const next = new Int32Array(this.nextFile);
    const mine = new Set<Promise<void>>();
    const parse = unreadData(this.s.methods);
    for (let i = Atomics.add(next, 0, 1); i < list.length && !this.failure; i = Atomics.add(next, 0, 1)) {
      try {
        for (const record of readSourceRecordsSync(this.plan.source, list[i]!, parse))
          await this.computeRecordHere(record, mine);
      } catch (err) {
        this.fail(err);
        break;
      }
      // Let the workers' batches and the group commits through between files; hold back while the writer is behind.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (mine.size >= MAX_UNWRITTEN) await Promise.race(mine);
    }
  }

  private async computeRecordHere(record: RawRecord, mine: Set<Promise<void>>): Promise<void> {
    const { plan, s } = this;
    for await (const { batch, failed } of computeRecord(plan.source, record, plan.selected, s, s.issues)) {
      if (!batch) {
        skipQuestion(s);
        continue;
      }
      countFailures(s.counters, failed);
      const p = this.write(batch).finally(() => mine.delete(p));
      mine.add(p);
    }
  }

  /** Array files: split the file here and hand each record's bytes to the least busy worker. */
  private async feedRecords(): Promise<void> {
    const { plan } = this;
    let index = 0;
    // An item not selected (a sample of M, say) is passed over here by its head, never copied to a worker nor parsed.
    const selector = headSelector(plan.source, (c) => plan.selected.has(c.questionId));
    for await (const bytes of splitJsonArrayFile(plan.source.path)) {
      if (selector && refusedByHead(bytes, selector)) {
        index++;
        continue;
      }
      const w = await this.workerWithCredit();
      if (w === undefined) return;
      this.pendingRecords[w]!++;
      this.workers[w]!.postMessage(
        { type: 'record', bytes, file: plan.source.path, index: index++ } satisfies ToWorker,
        [bytes.buffer as ArrayBuffer],
      );
    }
    for (const w of this.workers) w.postMessage({ type: 'end' } satisfies ToWorker);
  }

  /** The least busy worker once it has room for another record (RECORDS_AHEAD), or undefined after a failure. */
  private async workerWithCredit(): Promise<number | undefined> {
    for (;;) {
      if (this.failure) return undefined;
      const w = this.pendingRecords.indexOf(Math.min(...this.pendingRecords));
      if (this.pendingRecords[w]! < RECORDS_AHEAD) return w;
      await new Promise<void>((resolve) => (this.creditWaiter = resolve));
      this.creditWaiter = undefined;
    }
  }
}
