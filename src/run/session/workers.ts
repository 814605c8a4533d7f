/**
 * The run's compute workers (parallel/), one pool per dataset when every method is pure computation and the run has
 * enough questions. The first dataset's pool starts as soon as the datasets are planned — adopting the worker
 * `adaptmr run` pre-warmed before it read the experiment — so its workers boot (modules, methods) while this thread
 * loads the embedder and records the run; the other pools start when their dataset comes. Only the first pass of a
 * run uses workers (a later pass computes the few questions the Batch API or the budget postponed).
 */
import type { LoadedExperiment } from '../config/load-config.ts';
import { workerCount, workerObstacle } from '../parallel/eligible.ts';
import { runnerComputes, startWorkerPool, type WorkerPool } from '../parallel/pool.ts';
import { releaseWarmWorker } from '../parallel/spawn.ts';
import { everyMethod, questionCount, type SessionDataset } from './datasets.ts';

export class ComputeWorkers {
  private first: WorkerPool | undefined;
  private firstTaken = false;

  private constructor(
    private readonly exp: LoadedExperiment,
    private readonly datasets: readonly SessionDataset[],
    private readonly runId: string,
    private readonly requested: number | undefined,
    /** No results file yet: nothing of the first dataset is done, and its workers can start computing at once. */
    private readonly freshResults: boolean,
  ) {}

  /** Decides the workers and starts the first dataset's pool (or lets the pre-warmed worker go). */
  static async start(
    exp: LoadedExperiment,
    datasets: readonly SessionDataset[],
    o: { runId: string; requested: number | undefined; freshResults: boolean; log: (line: string) => void },
  ): Promise<ComputeWorkers> {
    const obstacle = workerObstacle(exp.config, everyMethod(datasets));
    if ((o.requested ?? 0) > 0 && obstacle !== undefined) o.log(`workers: not used (${obstacle})`);
    const workers = new ComputeWorkers(exp, datasets, o.runId, o.requested, o.freshResults);
    workers.first = workers.startPool(0);
    // A run without workers (LLM calls, few questions) has no use for the worker `adaptmr run` started early.
    if (!workers.first) await releaseWarmWorker();
    return workers;
  }

  /** Dataset `i`'s pool, or undefined to compute its questions in this process. */
  take(i: number): WorkerPool | undefined {
    if (i > 0) return this.startPool(i);
    this.firstTaken = true;
    return this.first;
  }

  /** Stops the first pool if the run failed before it was used (a pool that ran stops its own workers). */
  async stopUnused(): Promise<void> {
    if (!this.firstTaken) await this.first?.stop();
  }

  private startPool(i: number): WorkerPool | undefined {
    const { plan, config } = this.datasets[i]!;
    // Folder datasets: the runner's thread computes questions too, beside the workers (parallel/pool.ts).
    const workers = workerCount(
      this.exp.config,
      everyMethod(this.datasets),
      questionCount(this.datasets),
      this.requested,
      runnerComputes(plan),
    );
    if (workers === 0) return undefined;
    return startWorkerPool(plan, config, this.runId, {
      workers,
      path: this.exp.path,
      configHash: this.exp.configHash,
      freshResults: i === 0 && this.freshResults,
    });
  }
}
