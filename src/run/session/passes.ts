/**
 * The run's questions, computed dataset by dataset, in passes. The first pass computes every selected question not
 * yet done — in the dataset's compute workers when the run has them (session/workers.ts), else in this process
 * (run-dataset.ts) — and writes its rows as it goes. When the Batch API or the budget postpones calls
 * (spend-controls.ts), each later pass computes only what the earlier ones postponed. A signal (interrupt.ts) or the
 * spent budget starts no new question; those in flight finish.
 */
import type { ExperimentConfig } from '../../core/config.ts';
import type { LlmProvider } from '../../core/llm.ts';
import type { DataIssue } from '../../data/index.ts';
import type { PanelJudge } from '../../eval/qa/panel.ts';
import type { QuestionSink } from '../../store/types.ts';
import { emptyFailureCounts } from '../record/failures.ts';
import type { IndexCache } from '../index-cache.ts';
import type { InterruptState } from '../interrupt.ts';
import { createProgress, type Progress } from '../record/progress.ts';
import { runDatasetInProcess, type DatasetRunState, type RunCounters } from '../run-dataset.ts';
import type { SpendControls } from '../spend/spend-controls.ts';
import type { SessionDataset } from './datasets.ts';
import { storeCheckpoints, type Resume, type ResultsTarget } from './results-target.ts';
import type { ComputeWorkers } from './workers.ts';

/** What the passes use: the run's datasets, where its rows go, and its shared parts. */
export interface PassSetup {
  config: ExperimentConfig;
  runId: string;
  /** Questions selected across datasets (the progress bar's total). */
  total: number;
  datasets: readonly SessionDataset[];
  target: ResultsTarget;
  sink: QuestionSink;
  resume: Resume;
  indexes: IndexCache;
  llm: LlmProvider | undefined;
  panel: PanelJudge[];
  controls: SpendControls | undefined;
  workers: ComputeWorkers;
  concurrency: number;
  progress: boolean;
  interrupt: InterruptState | undefined;
  onWritten: (dataset: string, questionId: string) => void;
}

export class QuestionPasses {
  /** What this invocation did, across passes. */
  readonly counters: RunCounters = { written: 0, skipped: 0, errors: 0, failures: emptyFailureCounts() };
  /** Data defects met while reading the questions (reported once, by the first pass). */
  readonly issues: DataIssue[] = [];
  private progress: Progress;
  private resume: Resume;
  /** The questions found done by the first pass (a later pass finds the first pass's own questions done too). */
  private skippedBefore: number | undefined;

  constructor(private readonly s: PassSetup) {
    this.progress = createProgress(s.total, s.progress);
    this.resume = s.resume;
  }

  /** Runs the passes until nothing is postponed any more, or the run is told to stop. */
  async run(): Promise<void> {
    for (let pass = 1; ; pass++) {
      if (this.s.interrupt?.requested) break;
      if (pass > 1) await this.nextPass();
      await this.pass(pass);
      if (this.s.interrupt?.requested || !(await this.s.controls?.afterPass())) break;
    }
    if (this.skippedBefore !== undefined) this.counters.skipped = this.skippedBefore;
  }

  /** Ends the progress bar and lets a signal stop the process at once again (whatever ended the passes). */
  stop(): void {
    this.progress.stop();
    if (this.s.interrupt) this.s.interrupt.graceful = false;
  }

  private async pass(pass: number): Promise<void> {
    for (const [i, dataset] of this.s.datasets.entries()) {
      if (this.s.interrupt?.requested) break;
      const state = this.datasetState(dataset, pass);
      const pool = pass === 1 ? this.s.workers.take(i) : undefined;
      // Questions computed here can be finished on a signal; workers are stopped at once (no paid call in them).
      if (this.s.interrupt) this.s.interrupt.graceful = pool === undefined;
      if (pool) await pool.run(state);
      else await runDatasetInProcess(dataset.plan, state);
    }
  }

  /** A later pass computes only what earlier ones postponed: every row written so far (errors too) stays as is. */
  private async nextPass(): Promise<void> {
    this.resume = await this.s.target.resume(this.s.runId, false);
    this.skippedBefore ??= this.counters.skipped;
    this.counters.postponed = 0;
    this.progress.stop();
    this.progress = createProgress(this.s.total, this.s.progress);
  }

  private datasetState(d: SessionDataset, pass: number): DatasetRunState {
    const { s } = this;
    // Checkpoints are read and written as the run goes, so only a run writing the file directly has them.
    const direct = s.target.direct;
    return {
      config: d.config,
      runId: s.runId,
      methods: d.methods,
      store: s.sink,
      ...this.resume,
      indexes: s.indexes,
      progress: this.progress,
      counters: this.counters,
      // A data defect is reported once, by the first pass.
      issues: pass === 1 ? this.issues : [],
      concurrency: s.concurrency,
      onWritten: s.onWritten,
      llm: s.llm,
      checkpoints: direct ? (methodId: string) => storeCheckpoints(direct, s.runId, methodId) : undefined,
      judging:
        s.panel.length > 0
          ? { panel: s.panel, headline: d.plan.errata ? 'errata' : 'original', errata: d.plan.errata }
          : undefined,
      // A signal (interrupt.ts) or the spent budget (spend-controls.ts): no new question starts.
      stopping: () => s.interrupt?.requested !== undefined || (s.controls?.stopRequested() ?? false),
    };
  }
}
