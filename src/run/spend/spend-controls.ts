/**
 * What a run spends on LLM calls, under control: the Batch API stage (batch-stage.ts) and the budget guard
 * (budget.ts), installed in the LLM provider for the run and consulted by the runner between passes. A run without
 * `llm.batch` or `llm.budgetUsd` still finishes any batch an earlier invocation of it recorded (a batch is paid for
 * whether or not the config still asks for batches).
 */
import type { ExperimentConfig } from '../../core/config.ts';
import type { AdaptmrLlmProvider } from '../../llm/provider.ts';
import type { ResultStore } from '../../store/types.ts';
import { BatchStage } from './batch-stage.ts';
import { BudgetGuard } from './budget.ts';

/** A guard against an endless pass loop: each pass finishes at least one batched stage of every waiting question. */
const MAX_PASSES = 64;

export class SpendControls {
  private passes = 0;

  private constructor(
    private readonly llm: AdaptmrLlmProvider,
    private readonly stage: BatchStage,
    private readonly budget: BudgetGuard | undefined,
  ) {}

  static async open(
    llm: AdaptmrLlmProvider,
    config: ExperimentConfig,
    store: ResultStore,
    runId: string,
    log: (line: string) => void,
  ): Promise<SpendControls | undefined> {
    const llmConfig = config.llm;
    if (!llmConfig) return undefined;
    const budget =
      llmConfig.budgetUsd !== undefined ? await BudgetGuard.open(store, runId, llmConfig.budgetUsd) : undefined;
    const stage = await BatchStage.open(llm, llmConfig, store, runId, log, budget);
    llm.control({ batch: llmConfig.batch ? stage : undefined, budget });
    // A batch an earlier invocation submitted is folded before any question is computed, so none is asked twice.
    await stage.finishRecorded();
    if (budget)
      log(
        `budget: $${budget.spent.toFixed(4)} of llm.budgetUsd $${budget.budgetUsd} spent by earlier invocations of this run`,
      );
    return new SpendControls(llm, stage, budget);
  }

  /** True once the budget refused a call: the run starts no new question. */
  readonly stopRequested = (): boolean => this.budget?.stopped ?? false;

  /**
   * After a pass over the questions: submits what the pass queued for the Batch API and waits for it. True when
   * another pass is needed (it writes the questions those replies complete).
   */
  async afterPass(): Promise<boolean> {
    this.passes++;
    if (this.stage.waiting === 0 || this.stopRequested()) return false;
    if (this.passes >= MAX_PASSES)
      throw new Error(
        `the run needed more than ${MAX_PASSES} Batch API rounds; a stage asks one request at a time (send its role singly)`,
      );
    return (await this.stage.flush()) > 0;
  }

  /** The summary's line when the run stopped early, else undefined. */
  stoppedBecause(): string | undefined {
    return this.budget?.describe();
  }

  close(): void {
    this.llm.control({});
  }
}
