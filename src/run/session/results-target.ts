/**
 * Where a run's rows go. A run that starts a new results file and only computes (no LLM, no memorising method:
 * nothing it reads back or writes apart from its questions) spools them (src/store/spool.ts) and loads DuckDB only
 * at its end, after its compute threads are gone; any other run opens the file at once — after its compute workers
 * were started — to read what is done. Either way the run's record, its methods and its run-level checkpoints are
 * written first, and `folded()` is the results file with every row in it.
 */
import { existsSync } from 'node:fs';
import type { Checkpoints } from '../../core/interfaces.ts';
import { SpoolWriter, spoolPathOf, type SpoolRun } from '../../store/spool.ts';
import type { QuestionSink, ResultStore } from '../../store/types.ts';
import { PaidCallLedger } from '../spend/paid-calls.ts';

/**
 * The run's group-commit wait. Workers deliver hundreds of questions a second, and the appender flushes of a
 * transaction cost the runner's thread, which computes questions too: on LongMemEval S (BM25, 499 questions) 100 ms
 * instead of 25 ms cuts them from 233 to 87 ms of CPU. A killed run loses at most ~100 ms of work; the end of a
 * run does not wait (`commitQueued`).
 */
export const RUN_LINGER_MS = 100;

/** What the results file already holds of the run (resume): the question × method keys done and to retry. */
export interface Resume {
  done: Set<string>;
  /** Keys whose rows are errors, computed again with their rows replaced (empty with `retryErrors: false`). */
  retry: Set<string>;
  /** Paid calls of the run's unwritten questions, recorded as they returned (a direct store only). */
  ledger: PaidCallLedger | undefined;
}

export class ResultsTarget {
  private spool: SpoolWriter | undefined;

  private constructor(
    private readonly out: string,
    private store: ResultStore | undefined,
  ) {}

  /** No results file, nor its write-ahead log or row spool: nothing of the run can be done yet. */
  static isFresh(out: string): boolean {
    return !existsSync(out) && !existsSync(`${out}.wal`) && !existsSync(spoolPathOf(out));
  }

  /** Opens the results file now, or (`spooling`) leaves it for the end of the run. */
  static async open(out: string, spooling: boolean): Promise<ResultsTarget> {
    return new ResultsTarget(out, spooling ? undefined : await openStore(out));
  }

  /** The results file while the run writes it directly (checkpoints, spend controls, later passes need it). */
  get direct(): ResultStore | undefined {
    return this.spool ? undefined : this.store;
  }

  /**
   * Writes the run's own rows (its record, one row per method, its run-level checkpoints) and reads what the file
   * holds; the sink is where the question rows then go.
   */
  async record(start: SpoolRun, retryErrors: boolean): Promise<{ resume: Resume; sink: QuestionSink }> {
    const store = this.store;
    if (!store) {
      this.spool = SpoolWriter.create(this.out, start, RUN_LINGER_MS);
      return { resume: { done: new Set(), retry: new Set(), ledger: undefined }, sink: this.spool };
    }
    const { runId } = start.run;
    await store.upsertRun(start.run);
    await store.upsertMethods(runId, start.methods);
    for (const c of start.checkpoints) await store.putCheckpoint(runId, c.method, c.key, c.value);
    return { resume: await this.resume(runId, retryErrors), sink: store };
  }

  /**
   * What is done, read again from the file. A later pass (`retryErrors: false`) computes only what earlier ones
   * postponed: every row written so far, errors too, stays as is.
   */
  async resume(runId: string, retryErrors: boolean): Promise<Resume> {
    const store = this.store!;
    const done = await store.completedKeys(runId, { retryErrors });
    const retry = retryErrors ? await store.failedKeys(runId) : new Set<string>();
    return { done, retry, ledger: await PaidCallLedger.open(store, runId, done) };
  }

  /** The results file with the spool folded in (its rows are then in the file and the spool is gone). */
  async folded(): Promise<ResultStore> {
    await this.spool?.close();
    return (this.store ??= await openStore(this.out));
  }

  async close(): Promise<void> {
    await this.spool?.close();
    await this.store?.close();
  }
}

/** DuckDB loads only here: a spooling run loads it after its compute workers are gone. */
async function openStore(out: string): Promise<ResultStore> {
  return (await import('../../store/index.ts')).openResultStore(out, { lingerMs: RUN_LINGER_MS });
}

/** A method's checkpoints in the results file (a run writing the file directly). */
export function storeCheckpoints(store: ResultStore, runId: string, methodId: string): Checkpoints {
  return {
    has: async (key) => (await store.getCheckpoint(runId, methodId, key)) !== undefined,
    get: (key) => store.getCheckpoint(runId, methodId, key),
    put: (key, value) => store.putCheckpoint(runId, methodId, key, value),
  };
}
