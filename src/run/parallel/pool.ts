/**
 * The runner's side of the compute workers: starts them (early, so they boot while the runner opens the results
 * file), feeds array-file records to them (folder files they claim themselves), writes every batch they send
 * through the store's group commit, and keeps the counters and progress. The first failure stops every worker and
 * is raised here: a data error keeps its one-line InputError form.
 */
import { InputError } from '../../core/errors.ts';
import { headSelector, readSourceRecordsSync, refusedByHead, splitJsonArrayFile } from '../../data/index.ts';
import { createWordVectorsSlot, embedders, useWordVectorsSlot, winkCachePath, type WordVectorsSlot } from '../../index/index.ts';
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

export function startWorkerPool(plan: DatasetPlan, config: DatasetRunState['config'], runId: string, opts: WorkerRunOptions): WorkerPool {
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
  const mailboxes = Array.from({ length: opts.workers }, (_, i) => (i === 0 ? adoptWarmWorker(init) : undefined) ?? new Mailbox(startWorker(init)));
  if (opts.freshResults) for (const b of mailboxes) b.worker.postMessage({ type: 'start', done: [], retry: [] } satisfies ToWorker);
  return {
    stop: async () => {
      await Promise.all(mailboxes.map((b) => b.worker.terminate()));
    },
    run: (s) => runInWorkers(mailboxes, plan, s, unwritten, files, init.nextFile, opts.freshResults === true),
  };
}

async function runInWorkers(
  mailboxes: Mailbox[],
  plan: DatasetPlan,
  s: DatasetRunState,
  unwritten: Int32Array,
  files: string[] | undefined,
  nextFile: SharedArrayBuffer,
  started: boolean,
): Promise<void> {
  const workers = mailboxes.map((b) => b.worker);
  const prefix = `${plan.source.name}\t`;
  const start = {
    type: 'start',
    done: [...s.done].filter((k) => k.startsWith(prefix)),
    retry: [...(s.retry ?? [])].filter((k) => k.startsWith(prefix)),
  } satisfies ToWorker;
  if (started && start.done.length + start.retry.length > 0) {
    // Another process created the results file between the check and the open: what the workers computed may be in
    // it already. Stop before writing any of it rather than write a question twice.
    await Promise.all(workers.map((w) => w.terminate()));
    throw new InputError('the results file appeared while this run was starting (another run writing it?); run again to resume', s.store.path);
  }
  const pendingRecords = workers.map(() => 0);
  let creditWaiter: (() => void) | undefined;
  let failure: Error | undefined;
  const writes = new Set<Promise<void>>();

  const fail = (err: Error): void => {
    failure ??= err;
    creditWaiter?.();
  };

  const onMessage = (m: FromWorker, w: number): void => {
    switch (m.type) {
      case 'batch': {
        countFailures(s.counters, m.failed);
        const p: Promise<void> = writeQuestion(m.batch, s)
          .catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))))
          .finally(() => {
            writes.delete(p);
            Atomics.sub(unwritten, 0, 1);
            Atomics.notify(unwritten, 0);
          });
        writes.add(p);
        break;
      }
      case 'skipped':
        skipQuestion(s);
        break;
      case 'record-done':
        pendingRecords[w]!--;
        creditWaiter?.();
        break;
      case 'done':
        s.issues.push(...m.issues);
        break;
      case 'failed':
        fail(m.input ? new InputError(m.message) : new Error(`compute worker failed: ${m.message}`));
        break;
      case 'ready':
        break;
    }
  };

  const finished = mailboxes.map(
    (box, w) =>
      new Promise<void>((resolve) => {
        box.listen((e) => {
          if (e.kind === 'message') onMessage(e.m, w);
          else if (e.kind === 'error') fail(e.err);
          else {
            if (e.code !== 0) fail(new Error(`compute worker exited with code ${e.code}`));
            creditWaiter?.();
            resolve();
          }
        });
      }),
  );
  if (!started) for (const w of workers) w.postMessage(start);

  try {
    if (!files) await feedRecords();
    else if (runnerComputes(plan)) await computeHere(files);
    await Promise.all(finished);
    // Every question computed: commit what is queued now rather than after the group-commit wait.
    s.store.commitQueued();
    await Promise.all(writes);
  } finally {
    if (failure) await Promise.all(workers.map((w) => w.terminate()));
  }
  if (failure) throw failure;

  /** Folder files: this thread claims files from the workers' counter and writes its own questions directly. */
  async function computeHere(list: string[]): Promise<void> {
    const next = new Int32Array(nextFile);
    const mine = new Set<Promise<void>>();
    const parse = unreadData(s.methods);
    for (let i = Atomics.add(next, 0, 1); i < list.length && !failure; i = Atomics.add(next, 0, 1)) {
      try {
        for (const record of readSourceRecordsSync(plan.source, list[i]!, parse)) {
          for await (const { batch, failed } of computeRecord(plan.source, record, plan.selected, s, s.issues)) {
            if (!batch) {
              skipQuestion(s);
              continue;
            }
            countFailures(s.counters, failed);
            const p: Promise<void> = writeQuestion(batch, s)
              .catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))))
              .finally(() => {
                mine.delete(p);
                writes.delete(p);
              });
            mine.add(p);
            writes.add(p);
          }
        }
      } catch (err) {
        fail(err instanceof Error ? err : new Error(String(err)));
        break;
      }
      // Let the workers' batches and the group commits through between files; hold back while the writer is behind.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (mine.size >= MAX_UNWRITTEN) await Promise.race(mine);
    }
  }

  /** Array files: split the file here and hand each record's bytes to the least busy worker. */
  async function feedRecords(): Promise<void> {
    const post = (w: number, m: ToWorker, transfer: ArrayBuffer[] = []): void => workers[w]!.postMessage(m, transfer);
    let index = 0;
    // An item not selected (a sample of M, say) is passed over here by its head, never copied to a worker nor parsed.
    const selector = headSelector(plan.source, (c) => plan.selected.has(c.questionId));
    for await (const bytes of splitJsonArrayFile(plan.source.path)) {
      if (selector && refusedByHead(bytes, selector)) {
        index++;
        continue;
      }
      for (;;) {
        if (failure) return;
        const w = pendingRecords.indexOf(Math.min(...pendingRecords));
        if (pendingRecords[w]! < RECORDS_AHEAD) {
          pendingRecords[w]!++;
          post(w, { type: 'record', bytes, file: plan.source.path, index: index++ }, [bytes.buffer as ArrayBuffer]);
          break;
        }
        await new Promise<void>((resolve) => (creditWaiter = resolve));
        creditWaiter = undefined;
      }
    }
    workers.forEach((_, w) => post(w, { type: 'end' }));
  }
}
