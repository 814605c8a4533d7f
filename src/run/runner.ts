/**
 * Runs one experiment (`adaptmr run`). `RunSession.run` is the pipeline, one step per line:
 *
 *   1. config       what the experiment needs is checked and built before any data is read, so a typo costs
 *                   nothing: the QA reader, the judge panel, the LLM provider
 *   2. methods      the experiment's methods created from their registries, and the embedder's options checked
 *   3. datasets     each dataset pulled if asked, its questions selected, its methods (a dataset entry may patch
 *                   them) and the questions a method was fitted on left out (session/datasets.ts)
 *   4. store        the run recorded with its provenance, and what the results file already holds read back
 *                   (session/run-record.ts, session/results-target.ts)
 *   5. questions    every selected question computed by every method not yet done, its rows written as it is done,
 *                   in passes while the Batch API or the budget postpones calls (session/passes.ts → run-dataset.ts
 *                   → question.ts)
 *   6. judging      the judge panel's other judges, gold versions and probes, over the stored answers (judge-pass.ts)
 *   7. statistics   CIs, paired comparisons and verdicts recomputed from the rows
 *
 * The speed devices stay behind those steps:
 *   - compute workers (session/workers.ts, parallel/): the first dataset's pool starts right after step 3, adopting
 *     the worker `adaptmr run` pre-warmed, so it boots while this thread loads the embedder and records the run;
 *   - fresh-file detection and the row spool (session/results-target.ts): a run that starts a new results file
 *     tells its workers nothing is done before the file is read, and when it only computes it spools its rows and
 *     loads DuckDB at its end;
 *   - provenance raced against DuckDB's open (session/run-record.ts), the git child process started first of all.
 *
 * A rerun of the same config into the same file resumes: questions already written are skipped, never duplicated,
 * and those whose rows are errors are computed again with their error rows replaced (unless `retryErrors: false`).
 * A failure keeps what was computed (the run marked failed); a signal finishes the questions in flight.
 */
import type { ExperimentConfig } from '../core/config.ts';
import { InputError, errorMessage } from '../core/errors.ts';
import type { LlmProvider } from '../core/llm.ts';
import { redactSecrets } from '../core/secrets.ts';
import { resolveDataDir } from '../data/index.ts';
import type { PanelJudge } from '../eval/qa/panel.ts';
import { embedders, openEmbeddingCache } from '../index/index.ts';
import type { AdaptmrLlmProvider } from '../llm/provider.ts';
import type { QuestionSink, ResultStore, RunRecord } from '../store/types.ts';
import { createMethods, type ConfiguredMethod } from './methods/create-methods.ts';
import type { FailedStage } from './record/failures.ts';
import { IndexCache } from './index-cache.ts';
import { RunInterrupted, type InterruptState } from './interrupt.ts';
import { judgeStage, runPanel } from './judging/judging.ts';
import type { LoadedExperiment } from './config/load-config.ts';
import { methods as methodRegistry } from './methods/method-registry.ts';
import { workerObstacle } from './parallel/eligible.ts';
import { gitState } from './record/provenance.ts';
import type { RunCounters } from './run-dataset.ts';
import {
  distinctSpecs,
  everyMethod,
  planSessionDatasets,
  questionCount,
  type SessionDataset,
} from './session/datasets.ts';
import { QuestionPasses } from './session/passes.ts';
import { Resources } from './session/resources.ts';
import { ResultsTarget, type Resume } from './session/results-target.ts';
import { readProvenance, runStart } from './session/run-record.ts';
import { checkBudgetPrices } from './spend/unpriced.ts';
import { unreadableVerdictWarning } from './record/unreadable-verdicts.ts';
import { unknownUnitWarnings } from './record/unknown-units.ts';
import { ComputeWorkers } from './session/workers.ts';
import { type RunShard, shardBudget } from './shards/shard-source.ts';
import { SpendControls } from './spend/spend-controls.ts';

export interface RunOptions {
  /** Results file (DuckDB). */
  out: string;
  dataDir?: string | undefined;
  /** Run on dataset files that differ from the lock file (recorded in the run's provenance, marked in reports). */
  allowUnlocked?: boolean | undefined;
  /** Run under a budget although some model has no price (its calls count as $0; unpriced.ts). */
  allowUnpriced?: boolean | undefined;
  concurrency?: number | undefined;
  /**
   * Worker threads computing questions (parallel/eligible.ts): 0 = all in this process; default one per core when
   * every method is pure computation and the run has enough questions.
   */
  workers?: number | undefined;
  progress?: boolean;
  /**
   * Resume: compute again the questions whose rows in the results file are errors (method/retrieval, reader or judge
   * failures) and replace those rows. Default true; false (`--no-retry-errors`) keeps the error rows as they are.
   */
  retryErrors?: boolean | undefined;
  log?: (line: string) => void;
  /** Called after each question's rows are committed (the CLI's --verbose prints it). */
  onQuestionWritten?: (dataset: string, questionId: string) => void;
  /** SIGTERM/SIGINT handling (interrupt.ts): once a signal is requested, no new question starts. */
  interrupt?: InterruptState;
  /** An LLM provider to use instead of the config's (the cost estimate's, which sends nothing: src/llm/dry-run.ts). */
  llm?: LlmProvider | undefined;
  /**
   * Run only this shard's haystack groups (shard-plan.ts): the file is marked partial (meta `shard`) and holds no
   * statistics; `adaptmr merge` of every shard makes the whole run.
   */
  shard?: RunShard | undefined;
}

export interface RunSummary {
  runId: string;
  out: string;
  /** Questions selected across datasets. */
  questions: number;
  /** Why the run stopped before finishing (its LLM budget), or absent when it ran to the end. */
  stopped?: string;
  /** Questions left unwritten because the run stopped (computed by the next invocation). */
  postponed?: number;
  /** Questions written by this invocation. */
  written: number;
  /** Questions already complete in the results file (resume). */
  skipped: number;
  /** (question, method) results of this invocation that ended in an error row (any stage). */
  errors: number;
  /** Those failed results by the stage that failed (method/retrieval, classifier, memorising, reader, judge). */
  failures: Record<FailedStage, number>;
  /** Questions of the run that still have an error row (any method, any stage) once this invocation is done. */
  failedQuestions: number;
  dataIssues: number;
  wallMs: number;
}

export async function runExperiment(exp: LoadedExperiment, opts: RunOptions): Promise<RunSummary> {
  return new RunSession(exp, opts).run();
}

/** Step 1's result: the LLM the questions call and the judge panel. */
interface LlmSetup {
  llm: LlmProvider | undefined;
  /** The config's own provider (absent when `opts.llm` replaces it): the Batch API and the budget act on it. */
  real: AdaptmrLlmProvider | undefined;
  panel: PanelJudge[];
}

/** Step 2's result. */
interface Components {
  methods: ConfiguredMethod[];
  embedderOptions: unknown;
}

/** What computes the questions: the compute workers, the embedder's index cache, and the warm-up time. */
interface Compute {
  workers: ComputeWorkers;
  indexes: IndexCache;
  /** No results file (nor its write-ahead log or row spool) existed before the workers started. */
  freshResults: boolean;
  warmupMs: number;
}

/** Step 4's result: the run as recorded, where its rows go, and what was done before. */
interface RecordedRun {
  record: RunRecord;
  target: ResultsTarget;
  resume: Resume;
  sink: QuestionSink;
}

/** Step 5's result. */
interface Computed {
  counters: RunCounters;
  issues: number;
  /** Why the run stopped early (its budget), if it did. */
  stopped: string | undefined;
}

export class RunSession {
  private readonly started = performance.now();
  private readonly config: ExperimentConfig;
  private readonly log: (line: string) => void;
  /** The run's id, derived from the config so a rerun of the same config resumes the same run. */
  private readonly runId: string;
  /**
   * Started first, while this process is smallest: starting a child process forks this one, and each page written
   * afterwards faults once more (provenance.ts).
   */
  private readonly git: ReturnType<typeof gitState>;
  /** What the run holds until it ends (results file, workers, embedding cache), released in reverse order. */
  private readonly resources = new Resources();

  constructor(
    private readonly exp: LoadedExperiment,
    private readonly opts: RunOptions,
  ) {
    this.config = exp.config;
    this.log = opts.log ?? ((line: string) => process.stderr.write(`${redactSecrets(line)}\n`));
    this.git = gitState();
    this.runId = `${exp.config.name}-${exp.configHash.slice(0, 12)}`;
  }

  async run(): Promise<RunSummary> {
    try {
      const llm = await this.loadConfig(); // 1. config
      const components = await this.createMethods(); // 2. methods
      const datasets = await this.planDatasets(components.methods); // 3. datasets
      const compute = await this.startCompute(datasets, components); // (workers boot, embedder loads)
      const run = await this.recordRun(datasets, components.methods, compute); // 4. store
      const computed = await this.computeQuestions(run, datasets, compute, llm); // 5. questions
      const results = await this.storeResults(run, datasets, computed); // (every row in the file)
      await this.judgeAnswers(results, computed, llm); // 6. judging
      await this.warnUnreadableVerdicts(results);
      for (const w of await unknownUnitWarnings(results, this.runId)) this.log(w);
      await this.endRun(results, run, computed); // (run marked done)
      if (this.opts.shard)
        await this.markShard(results, questionCount(datasets)); // (partial: merge computes 7)
      else await this.statistics(results, computed); // 7. statistics
      return await this.summary(results, computed, questionCount(datasets));
    } finally {
      await this.resources.release();
    }
  }

  /** 1. The QA reader, the judge panel and the LLM provider (its client loads only for an experiment that calls one). */
  private async loadConfig(): Promise<LlmSetup> {
    const { config, exp, opts } = this;
    if (config.qa && !config.llm?.roles.reader) {
      throw new InputError(
        'qa needs a reader model: add llm.roles.reader (and llm.roles.judge for LLM-judge verdicts)',
        exp.path,
      );
    }
    const panel = runPanel(config, exp.path);
    checkBudgetPrices(config, panel, opts.allowUnpriced, exp.path);
    const real =
      config.llm && !opts.llm ? (await import('../llm/provider.ts')).createLlmProvider(config.llm) : undefined;
    return { llm: opts.llm ?? real, real, panel };
  }

  /** 2. The experiment's methods, and the embedder's options checked. */
  private async createMethods(): Promise<Components> {
    const { config, exp } = this;
    const methods = await createMethods(config, exp.path, exp.configHash);
    const embedderOptions = embedders.parseOptions(
      config.embedder.name,
      config.embedder.options,
      `${exp.path}: embedder`,
    );
    return { methods, embedderOptions };
  }

  /** 3. The datasets, each with its selected questions and its methods. */
  private async planDatasets(methods: ConfiguredMethod[]): Promise<SessionDataset[]> {
    return planSessionDatasets(
      this.exp,
      methods,
      this.opts.dataDir,
      this.log,
      { allowUnlocked: this.opts.allowUnlocked },
      this.opts.shard,
    );
  }

  /**
   * The compute workers (the first dataset's started now, to boot while the run is recorded) and the embedder. Warm-up
   * (methods created — models loaded —, embedder vectors loaded, question catalogs read) is not part of any
   * question's latency; it is measured here and stored once per run.
   */
  private async startCompute(datasets: SessionDataset[], { embedderOptions }: Components): Promise<Compute> {
    const { config, exp, opts } = this;
    const freshResults = ResultsTarget.isFresh(opts.out);
    const workers = await ComputeWorkers.start(exp, datasets, {
      runId: this.runId,
      requested: opts.workers,
      freshResults,
      log: this.log,
    });
    this.resources.add(() => workers.stopUnused());
    // The embedding cache (a DuckDB file) is opened only for an embedder that uses it.
    const cached =
      typeof embedderOptions === 'object' &&
      embedderOptions !== null &&
      'cache' in embedderOptions &&
      embedderOptions.cache === true;
    // A shard shares it with the run's other shards: vectors one paid for are found by all (embedding-cache-files.ts).
    const embeddingCache = cached ? await openEmbeddingCache({ shared: opts.shard !== undefined }) : undefined;
    if (embeddingCache) this.resources.add(() => embeddingCache.close());
    const embedder = await embedders.create(
      config.embedder.name,
      config.embedder.options,
      embeddingCache ? { cache: embeddingCache } : {},
      `${exp.path}: embedder`,
    );
    logUnregisteredPlanSystems(config, this.log);
    // Questions arrive grouped by haystack, so one index per spec per in-flight question is enough to reuse them.
    const indexes = new IndexCache(embedder, ((opts.concurrency ?? config.concurrency) + 1) * distinctSpecs(datasets));
    return { workers, indexes, freshResults, warmupMs: performance.now() - this.started };
  }

  /**
   * 4. The run recorded with its provenance (read while DuckDB opens the file), and what the file holds. A run that
   * starts a new file and only computes spools its rows instead (session/results-target.ts).
   */
  private async recordRun(
    datasets: SessionDataset[],
    methods: ConfiguredMethod[],
    compute: Compute,
  ): Promise<RecordedRun> {
    const provenance = readProvenance(this.git, datasets);
    const spooling = compute.freshResults && workerObstacle(this.config, everyMethod(datasets)) === undefined;
    const target = await ResultsTarget.open(this.opts.out, spooling);
    this.resources.add(() => target.close());
    const start = runStart(this.exp, this.runId, methods, await provenance, compute.warmupMs);
    const { resume, sink } = await target.record(start, this.opts.retryErrors ?? true);
    if (resume.retry.size > 0)
      this.log(
        `resume: retrying ${resume.retry.size} question × method results that were errors (--no-retry-errors keeps them)`,
      );
    return { record: start.run, target, resume, sink };
  }

  /** 5. Every selected question computed and its rows written, in passes (session/passes.ts). */
  private async computeQuestions(
    run: RecordedRun,
    datasets: SessionDataset[],
    compute: Compute,
    { llm, real, panel }: LlmSetup,
  ): Promise<Computed> {
    const { config, opts } = this;
    const direct = run.target.direct;
    // The Batch API stage and the budget (spend-controls.ts): a run that uses either computes its questions in passes.
    const spend = shardBudget(config, opts.shard, this.log);
    const controls = direct && real ? await SpendControls.open(real, spend, direct, this.runId, this.log) : undefined;
    const passes = new QuestionPasses({
      config,
      runId: this.runId,
      total: questionCount(datasets),
      datasets,
      target: run.target,
      sink: run.sink,
      resume: run.resume,
      indexes: compute.indexes,
      llm,
      panel,
      controls,
      workers: compute.workers,
      concurrency: opts.concurrency ?? config.concurrency,
      progress: opts.progress ?? true,
      interrupt: opts.interrupt,
      onWritten: opts.onQuestionWritten ?? (() => {}),
    });
    try {
      await passes.run();
    } catch (err) {
      // What was computed is kept: the spooled questions go into the file with the run marked failed. (If even that
      // fails, the spool stays for the next command that opens the file.)
      const failed = await run.target.folded().catch(() => undefined);
      await failed?.upsertRun({ ...run.record, endedAt: new Date().toISOString(), status: 'failed' });
      throw err;
    } finally {
      passes.stop();
      controls?.close();
    }
    if (opts.interrupt?.requested) {
      // Interrupted: what finished is in the file; the run stays `running`, to be resumed.
      await run.target.folded();
      throw new RunInterrupted(opts.interrupt.requested, passes.counters.written);
    }
    const stopped = controls?.stoppedBecause();
    if (stopped) this.log(stopped);
    return { counters: passes.counters, issues: passes.issues.length, stopped };
  }

  /**
   * Methods release what they hold outside this process (server-side namespaces) once every question is done (not
   * when the budget stopped the run: the resume needs them); the spooled rows go into the results file.
   */
  private async storeResults(run: RecordedRun, datasets: SessionDataset[], computed: Computed): Promise<ResultStore> {
    if (!computed.stopped) for (const m of new Set(everyMethod(datasets))) await m.impl.close?.();
    return run.target.folded();
  }

  /**
   * 6. The other judges of the panel, the other gold versions and the leniency probes, from the stored answers. Not
   * when the budget stopped the run: its answers are not all in, and the resume judges them.
   */
  private async judgeAnswers(results: ResultStore, computed: Computed, { llm, panel }: LlmSetup): Promise<void> {
    const { config } = this;
    if (panel.length === 0 || !llm || computed.stopped) return;
    const { judgePass } = await import('./judging/judge-pass.ts');
    const qa = config.qa!;
    const judged = await judgePass(results, {
      runId: this.runId,
      panel,
      llm,
      stageOf: (id) => judgeStage(config, id),
      repeats: qa.judge.repeats,
      judgeAdversarial: qa.judge.judgeAdversarial,
      probes: qa.probes
        ? { perType: qa.probes.perType, seed: qa.probes.seed ?? config.seed, source: qa.probes.source }
        : undefined,
      dataDir: resolveDataDir({ flag: this.opts.dataDir, config: config.dataDir }),
      log: this.log,
    });
    computed.counters.failures.judge += judged.failed;
    computed.counters.errors += judged.failed;
  }

  /** A judge whose replies are often no verdict is named once (each such answer is an error row already). */
  private async warnUnreadableVerdicts(results: ResultStore): Promise<void> {
    if (!this.config.qa) return;
    const warning = await unreadableVerdictWarning(results, this.runId);
    if (warning) this.log(warning);
  }

  private async endRun(results: ResultStore, run: RecordedRun, computed: Computed): Promise<void> {
    await results.upsertRun({
      ...run.record,
      endedAt: new Date().toISOString(),
      status: computed.stopped ? 'stopped' : 'done',
    });
  }

  /** A shard's file says it is partial; its statistics would be a part's, so they come from `adaptmr merge`. */
  private async markShard(results: ResultStore, questions: number): Promise<void> {
    const { index, count, from } = this.opts.shard!;
    const { tagShard } = await import('../store/meta.ts');
    await tagShard(results, { index, count, from, questions });
    this.log(
      `shard ${index}/${count}: partial results; statistics, verdicts and the report come from \`adaptmr merge\``,
    );
  }

  /**
   * 7. Bootstrap CIs and paired comparisons of the whole file (every run in it), recomputed from the rows. The rows
   * are committed already, so a failure here loses nothing; `adaptmr report` retries.
   */
  private async statistics(results: ResultStore, computed: Computed): Promise<void> {
    // Data defects first: a question whose gold is missing from its haystack must not vanish from averages unsaid.
    if (computed.issues > 0)
      this.log(`data: ${computed.issues} defects repaired or reported (\`adaptmr data info --verbose\` lists them)`);
    try {
      const [{ refreshStats }, { PLAN_EXPERIMENT_REGISTRY }] = await Promise.all([
        import('../store/index.ts'),
        import('../plan-experiments/registry.ts'),
      ]);
      const stats = await refreshStats(results, PLAN_EXPERIMENT_REGISTRY);
      if (stats.recomputed)
        this.log(
          `stats: ${stats.cells} CI cells, ${stats.comparisons} paired comparisons, ${stats.verdicts} verdicts in ${(stats.ms / 1000).toFixed(1)} s`,
        );
    } catch (err) {
      this.log(`stats: not computed (${errorMessage(err)}); \`adaptmr report\` computes them`);
    }
  }

  private async summary(results: ResultStore, computed: Computed, questions: number): Promise<RunSummary> {
    // Counted from the file, so a resume reports what is still failed (kept with --no-retry-errors, or failed again).
    const failedQuestions = new Set([...(await results.failedKeys(this.runId))].map((k) => k.split('\t', 2).join('\t')))
      .size;
    const { postponed, ...counts } = computed.counters;
    const { stopped } = computed;
    return {
      runId: this.runId,
      out: this.opts.out,
      questions,
      ...counts,
      failedQuestions,
      dataIssues: computed.issues,
      wallMs: performance.now() - this.started,
      ...(stopped ? { stopped, postponed: postponed ?? 0 } : {}),
    };
  }
}

/** The plan's systems an experiment declares (`plan.systems`) that this harness has no method for yet. */
function logUnregisteredPlanSystems(config: ExperimentConfig, log: (line: string) => void): void {
  const missing = (config.plan?.systems ?? []).filter((name) => !methodRegistry.names().includes(name));
  if (missing.length > 0) log(`plan: systems not available in this harness yet (not run): ${missing.join(', ')}`);
}
