/**
 * Runs one experiment: resolves every component first (an unknown name fails before any work), streams each
 * dataset's selected questions, builds or reuses the memory index per haystack, runs every method, scores the
 * retrieval against the gold, and writes each question's rows in one transaction. A rerun of the same config into
 * the same file resumes: questions already written are skipped, never duplicated, and those whose rows are errors
 * are computed again with their error rows replaced (unless `retryErrors: false`).
 */
import { existsSync } from 'node:fs';
import type { ExperimentConfig } from '../core/config.ts';
import { InputError, errorMessage } from '../core/errors.ts';
import { redactSecrets } from '../core/secrets.ts';
import type { Checkpoints, Embedder } from '../core/interfaces.ts';
import {
  ensureDataset,
  filesOf,
  hashDatasetFiles,
  readCatalog,
  resolveDataDir,
  type DataIssue,
} from '../data/index.ts';
import { embedders, openEmbeddingCache } from '../index/index.ts';
import type { MethodRow, QuestionSink, ResultStore, RunRecord } from '../store/types.ts';
import { SpoolWriter, spoolPathOf } from '../store/spool.ts';
import type { LlmProvider } from '../core/llm.ts';
import type { AdaptmrLlmProvider } from '../llm/provider.ts';
import { configForDataset, hasMethodPatch } from '../core/dataset-methods.ts';
import { createMethods, type ConfiguredMethod } from './create-methods.ts';
import { methods as methodRegistry } from './method-registry.ts';
import { IndexCache } from './index-cache.ts';
import type { LoadedExperiment } from './load-config.ts';
import { createProgress } from './progress.ts';
import { datasetDigests, gitState, inputFileDigests, packageVersions } from './provenance.ts';
import { workerCount, workerObstacle } from './parallel/eligible.ts';
import { runnerComputes, startWorkerPool, type WorkerPool } from './parallel/pool.ts';
import { releaseWarmWorker } from './parallel/spawn.ts';
import { emptyFailureCounts, type FailedStage } from './failures.ts';
import { runDatasetInProcess, type DatasetPlan, type DatasetRunState, type RunCounters } from './run-dataset.ts';
import { PaidCallLedger } from './paid-calls.ts';
import { RunInterrupted, type InterruptState } from './interrupt.ts';
import { selectQuestions } from './select.ts';
import { judgeStage, runPanel } from './judging.ts';
import { loadErrata } from '../data/locomo-audit.ts';
import { SpendControls } from './spend-controls.ts';

export interface RunOptions {
  /** Results file (DuckDB). */
  out: string;
  dataDir?: string | undefined;
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
  const started = performance.now();
  const { config } = exp;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${redactSecrets(line)}\n`));
  // The git child process starts first, while this process is smallest: starting one forks the process, and each page
  // written afterwards faults once more (provenance.ts).
  const git = gitState();

  // 1. Resolve every component before touching data, so a typo costs nothing.
  if (config.qa && !config.llm?.roles.reader) {
    throw new InputError('qa needs a reader model: add llm.roles.reader (and llm.roles.judge for LLM-judge verdicts)', exp.path);
  }
  runPanel(config, exp.path);
  // The LLM client (openai SDK, tokenizer) loads only for experiments that call an LLM.
  const real = config.llm && !opts.llm ? (await import('../llm/provider.ts')).createLlmProvider(config.llm) : undefined;
  const llm = opts.llm ?? real;
  const methods = await createMethods(config, exp.path, exp.configHash);
  const embedderOptions = embedders.parseOptions(config.embedder.name, config.embedder.options, `${exp.path}: embedder`);
  const plans = await planDatasets(config, opts.dataDir, log);
  const datasets = await datasetMethods(exp, methods);
  plans.forEach((plan, i) => excludeFittedQuestions(plan, datasets[i]!.methods, log));
  // Compute workers boot (modules, methods) while this thread records the run (row spool or results file).
  const everyMethod = datasets.flatMap((d) => d.methods);
  const total = plans.reduce((n, p) => n + p.selected.size, 0);
  // Folder datasets: the runner's thread computes questions too, beside the workers (parallel/pool.ts).
  const workersFor = (plan: DatasetPlan): number => workerCount(config, everyMethod, total, opts.workers, runnerComputes(plan));
  if ((opts.workers ?? 0) > 0 && workerObstacle(config, everyMethod) !== undefined) log(`workers: not used (${workerObstacle(config, everyMethod)})`);
  const runId = runIdOf(exp);
  // No results file yet: nothing of the first dataset is done, and its workers can start at once (parallel/pool.ts).
  const fresh = !existsSync(opts.out) && !existsSync(`${opts.out}.wal`) && !existsSync(spoolPathOf(opts.out));
  const startPool = (i: number): WorkerPool | undefined => {
    const workers = workersFor(plans[i]!);
    return workers > 0 ? startWorkerPool(plans[i]!, datasets[i]!.config, runId, { workers, path: exp.path, configHash: exp.configHash, freshResults: i === 0 && fresh }) : undefined;
  };
  const firstPool = startPool(0);
  // The first pool adopts the worker `adaptmr run` started early; a run without workers (LLM calls, few questions)
  // has no use for it.
  if (!firstPool) await releaseWarmWorker();
  // The embedding cache (a DuckDB file) is opened only for an embedder that uses it.
  const cached = typeof embedderOptions === 'object' && embedderOptions !== null && 'cache' in embedderOptions && embedderOptions.cache === true;
  const embeddingCache = cached ? await openEmbeddingCache() : undefined;
  let poolUsed = false;
  try {
    const embedder = await embedders.create(config.embedder.name, config.embedder.options, embeddingCache ? { cache: embeddingCache } : {}, `${exp.path}: embedder`);
    logUnregisteredPlanSystems(config, log);
    // Warm-up (methods created — models loaded —, embedder vectors loaded, question catalogs read) is not part of any
    // question's latency; it is stored once per run (checkpoint `warmup` of the pseudo-method RUN_SCOPE).
    const warmupMs = performance.now() - started;
    const pools = (i: number): WorkerPool | undefined => (i === 0 ? ((poolUsed = true), firstPool) : startPool(i));
    return await runPlans(exp, plans, datasets, methods, embedder, llm, real, opts, log, { started, warmupMs, runId, total, pools, git, fresh });
  } finally {
    if (!poolUsed) await firstPool?.stop();
    await embeddingCache?.close();
  }
}

/** What one dataset of the run uses: the config as it sees it (its methods patched) and the methods built from it. */
interface DatasetMethods {
  config: ExperimentConfig;
  methods: ConfiguredMethod[];
}

/**
 * Each dataset's methods: the experiment's own, or — for a dataset entry with `index` / `methods` settings — the
 * same methods built from the patched config (src/core/dataset-methods.ts), every one validated before any work.
 */
async function datasetMethods(exp: LoadedExperiment, base: ConfiguredMethod[]): Promise<DatasetMethods[]> {
  const { config } = exp;
  return Promise.all(config.datasets.map(async (ref, i) => {
    if (!hasMethodPatch(ref)) return { config, methods: base };
    const where = `${exp.path}: datasets.${i} (${ref.name ?? ref.path})`;
    const patched = configForDataset(config, i, exp.path);
    return { config: patched, methods: await createMethods(patched, where, exp.configHash) };
  }));
}

async function runPlans(
  exp: LoadedExperiment,
  plans: DatasetPlan[],
  datasets: DatasetMethods[],
  methods: ConfiguredMethod[],
  embedder: Embedder,
  llm: LlmProvider | undefined,
  /** The config's own provider (absent when `opts.llm` replaces it): the Batch API and the budget act on it. */
  real: AdaptmrLlmProvider | undefined,
  opts: RunOptions,
  log: (line: string) => void,
  { started, warmupMs, runId, total, pools, git, fresh }: {
    started: number;
    warmupMs: number;
    runId: string;
    total: number;
    pools: (i: number) => WorkerPool | undefined;
    git: ReturnType<typeof gitState>;
    /** No results file (nor its write-ahead log or row spool) existed when the run started. */
    fresh: boolean;
  },
): Promise<RunSummary> {
  const { config } = exp;
  const panel = runPanel(config, exp.path);

  // 2. Record the run with its provenance. The provenance (git, node_modules, data file hashes: waits on another
  // process and the disk) is read meanwhile.
  const provenance = Promise.all([
    git,
    packageVersions(),
    Promise.all(plans.map(async (p) => [p.source.name, datasetDigests(p.source, await hashDatasetFiles(p.source))] as const)),
    inputFileDigests(datasets.map((d, i) => ({ dataset: plans[i]!.source.name, config: d.config }))),
  ]);
  provenance.catch(() => {}); // awaited below; a failure to open the file must not surface as an unhandled rejection
  const everyMethod = datasets.flatMap((d) => d.methods);
  // Where the question rows go. A run that starts a new results file and only computes (no LLM, no memorising method:
  // nothing it reads back or writes apart from its questions) spools them and loads DuckDB only at the end, after its
  // compute threads are gone (src/store/spool.ts); any other run opens the file now — DuckDB loads after the compute
  // workers were started — to read what is done.
  const spooling = fresh && workerObstacle(config, everyMethod) === undefined;
  const openStore = async (): Promise<ResultStore> => (await import('../store/index.ts')).openResultStore(opts.out, { lingerMs: RUN_LINGER_MS });
  let store = spooling ? undefined : await openStore();
  let spool: SpoolWriter | undefined;
  /** The results file with the spool folded in (its rows are then in the file and the spool is gone). */
  const foldedStore = async (): Promise<ResultStore> => {
    await spool?.close();
    return (store ??= await openStore());
  };
  try {
    const [git, versions, hashes, inputFiles] = await provenance;
    const record: RunRecord = {
      runId,
      name: config.name,
      configJson: JSON.stringify(config),
      configHash: exp.configHash,
      gitCommit: git.commit,
      gitDirty: git.dirty,
      packageVersions: versions,
      datasetHashes: Object.fromEntries(hashes),
      seed: config.seed,
      startedAt: new Date().toISOString(),
      status: 'running',
    };
    // One row per method with its declared index; a dataset entry may change the units on that dataset (its score and
    // retrieval rows carry their own granularity).
    const methodRows = methods.map(methodRow);
    const warmup = JSON.stringify({ warmupMs, at: record.startedAt });
    // The model and calibration files the methods read, with their sha256 (provenance.ts); a run-level checkpoint,
    // as the warm-up, so the row tables keep their schema.
    const inputs = JSON.stringify({ files: inputFiles });
    const retryErrors = opts.retryErrors ?? true;
    let done = new Set<string>();
    let retry = new Set<string>();
    let ledger: PaidCallLedger | undefined;
    let sink: QuestionSink;
    if (store) {
      await store.upsertRun(record);
      await store.upsertMethods(runId, methodRows);
      await store.putCheckpoint(runId, RUN_SCOPE, 'warmup', warmup);
      await store.putCheckpoint(runId, RUN_SCOPE, INPUT_FILES_KEY, inputs);
      done = await store.completedKeys(runId, { retryErrors });
      retry = retryErrors ? await store.failedKeys(runId) : new Set<string>();
      ledger = await PaidCallLedger.open(store, runId, done);
      sink = store;
    } else {
      spool = SpoolWriter.create(opts.out, { run: record, methods: methodRows, checkpoints: [{ method: RUN_SCOPE, key: 'warmup', value: warmup }, { method: RUN_SCOPE, key: INPUT_FILES_KEY, value: inputs }] }, RUN_LINGER_MS);
      sink = spool;
    }
    if (retry.size > 0) log(`resume: retrying ${retry.size} question × method results that were errors (--no-retry-errors keeps them)`);
    // The Batch API stage and the budget (spend-controls.ts): a run that uses either computes its questions in passes.
    const controls = store && real ? await SpendControls.open(real, config, store, runId, log) : undefined;
    let progress = createProgress(total, opts.progress ?? true);
    const counters: RunCounters = { written: 0, skipped: 0, errors: 0, failures: emptyFailureCounts() };
    let skippedBefore: number | undefined;
    const issues: DataIssue[] = [];
    // Questions arrive grouped by haystack, so one index per spec per in-flight question is enough to reuse them.
    const indexes = new IndexCache(embedder, ((opts.concurrency ?? config.concurrency) + 1) * distinctSpecs(datasets));
    // Checkpoints are read and written as the run goes, so only a run writing the file directly has them.
    const direct = store;
    try {
      for (let pass = 1; ; pass++) {
        if (opts.interrupt?.requested) break;
        if (pass > 1) {
          // A later pass computes only what earlier ones postponed: every row written so far (errors too) stays as is.
          done = await store!.completedKeys(runId, { retryErrors: false });
          retry = new Set<string>();
          ledger = await PaidCallLedger.open(store!, runId, done);
          skippedBefore ??= counters.skipped;
          counters.postponed = 0;
          progress.stop();
          progress = createProgress(total, opts.progress ?? true);
        }
        for (const [i, plan] of plans.entries()) {
          const state: DatasetRunState = {
            config: datasets[i]!.config,
            runId,
            methods: datasets[i]!.methods,
            store: sink,
            done,
            retry,
            indexes,
            progress,
            counters,
            // A data defect is reported once, by the first pass.
            issues: pass === 1 ? issues : [],
            concurrency: opts.concurrency ?? config.concurrency,
            onWritten: opts.onQuestionWritten ?? (() => {}),
            llm,
            checkpoints: direct ? (methodId: string) => storeCheckpoints(direct, runId, methodId) : undefined,
            ledger,
            judging: panel.length > 0 ? { panel, headline: plans[i]!.errata ? 'errata' : 'original', errata: plans[i]!.errata } : undefined,
            // A signal (interrupt.ts) or the spent budget (spend-controls.ts): no new question starts.
            stopping: () => opts.interrupt?.requested !== undefined || (controls?.stopRequested() ?? false),
          };
          if (opts.interrupt?.requested) break;
          const pool = pass === 1 ? pools(i) : undefined;
          // Questions computed here can be finished on a signal; workers are stopped at once (no paid call in them).
          if (opts.interrupt) opts.interrupt.graceful = pool === undefined;
          if (pool) await pool.run(state);
          else await runDatasetInProcess(plan, state);
        }
        if (opts.interrupt?.requested || !(await controls?.afterPass())) break;
      }
    } catch (err) {
      // What was computed is kept: the spooled questions go into the file with the run marked failed. (If even that
      // fails, the spool stays for the next command that opens the file.)
      const failed = await foldedStore().catch(() => undefined);
      await failed?.upsertRun({ ...record, endedAt: new Date().toISOString(), status: 'failed' });
      throw err;
    } finally {
      progress.stop();
      controls?.close();
      if (opts.interrupt) opts.interrupt.graceful = false;
    }
    if (opts.interrupt?.requested) {
      // Interrupted: what finished is in the file; the run stays `running`, to be resumed.
      await foldedStore();
      throw new RunInterrupted(opts.interrupt.requested, counters.written);
    }
    if (skippedBefore !== undefined) counters.skipped = skippedBefore;
    const stopped = controls?.stoppedBecause();
    if (stopped) log(stopped);
    // Methods release what they hold outside this process (server-side namespaces) once every question is done.
    if (!stopped) for (const m of new Set(everyMethod)) await m.impl.close?.();
    const results = await foldedStore();
    // The other judges of the panel, the other gold versions and the leniency probes, from the stored answers.
    // Not when the budget stopped the run: its answers are not all in, and the resume judges them.
    if (panel.length > 0 && llm && !stopped) {
      const { judgePass } = await import('./judge-pass.ts');
      const qa = config.qa!;
      const judged = await judgePass(results, {
        runId, panel, llm, stageOf: (id) => judgeStage(config, id), repeats: qa.judge.repeats, judgeAdversarial: qa.judge.judgeAdversarial,
        probes: qa.probes ? { perType: qa.probes.perType, seed: qa.probes.seed ?? config.seed, source: qa.probes.source } : undefined,
        dataDir: resolveDataDir({ flag: opts.dataDir, config: config.dataDir }), log,
      });
      counters.failures.judge += judged.failed;
      counters.errors += judged.failed;
    }
    await results.upsertRun({ ...record, endedAt: new Date().toISOString(), status: stopped ? 'stopped' : 'done' });
    // Data defects first: a question whose gold is missing from its haystack must not vanish from averages unsaid.
    if (issues.length > 0) log(`data: ${issues.length} defects repaired or reported (\`adaptmr data info --verbose\` lists them)`);
    // Bootstrap CIs and paired comparisons of the whole file (every run in it), recomputed from the rows. The rows are
    // committed already, so a failure here loses nothing; `adaptmr report` retries.
    try {
      const { refreshStats } = await import('../store/index.ts');
      const stats = await refreshStats(results);
      if (stats.recomputed) log(`stats: ${stats.cells} CI cells, ${stats.comparisons} paired comparisons, ${stats.verdicts} verdicts in ${(stats.ms / 1000).toFixed(1)} s`);
    } catch (err) {
      log(`stats: not computed (${errorMessage(err)}); \`adaptmr report\` computes them`);
    }
    // Counted from the file, so a resume reports what is still failed (kept with --no-retry-errors, or failed again).
    const failedQuestions = new Set([...(await results.failedKeys(runId))].map((k) => k.split('\t', 2).join('\t'))).size;
    const { postponed, ...counts } = counters;
    return {
      runId, out: opts.out, questions: total, ...counts, failedQuestions, dataIssues: issues.length, wallMs: performance.now() - started,
      ...(stopped ? { stopped, postponed: postponed ?? 0 } : {}),
    };
  } finally {
    await spool?.close();
    await store?.close();
  }
}

/**
 * The run's group-commit wait. Workers deliver hundreds of questions a second, and the appender flushes of a
 * transaction cost the runner's thread, which computes questions too: on LongMemEval S (BM25, 499 questions) 100 ms
 * instead of 25 ms cuts them from 233 to 87 ms of CPU. A killed run loses at most ~100 ms of work; the end of a
 * run does not wait (`commitQueued`).
 */
const RUN_LINGER_MS = 100;

/** The run's id, derived from the config so a rerun of the same config resumes the same run. */
function runIdOf(exp: LoadedExperiment): string {
  return `${exp.config.name}-${exp.configHash.slice(0, 12)}`;
}

/** The checkpoints' method column for run-wide markers (the run's warm-up time). */
export const RUN_SCOPE = '(run)';
/** The run-level checkpoint listing the model and calibration files the run read, with their sha256. */
export const INPUT_FILES_KEY = 'input-files';

/** The plan's systems an experiment declares (`plan.systems`) that this harness has no method for yet. */
function logUnregisteredPlanSystems(config: ExperimentConfig, log: (line: string) => void): void {
  const missing = (config.plan?.systems ?? []).filter((name) => !methodRegistry.names().includes(name));
  if (missing.length > 0) log(`plan: systems not available in this harness yet (not run): ${missing.join(', ')}`);
}

/**
 * Leaves out of a dataset the questions some of its methods was fitted on (e.g. an abstention calibration split),
 * so all methods are compared on the same held-out questions.
 */
function excludeFittedQuestions(plan: DatasetPlan, methods: ConfiguredMethod[], log: (line: string) => void): void {
  const fitted = new Set(methods.flatMap((m) => [...(m.impl.excludedQuestionIds ?? [])]));
  const before = plan.selected.size;
  for (const id of fitted) plan.selected.delete(id);
  if (plan.selected.size < before) {
    log(`${plan.source.name}: ${before - plan.selected.size} questions left out (a method was fitted or calibrated on them)`);
  }
}

function distinctSpecs(datasets: readonly DatasetMethods[]): number {
  return Math.max(...datasets.map((d) => new Set(d.methods.map((m) => JSON.stringify(m.index))).size));
}

async function planDatasets(config: ExperimentConfig, dataDirFlag: string | undefined, log: (l: string) => void): Promise<DatasetPlan[]> {
  const dataDir = resolveDataDir({ flag: dataDirFlag, config: config.dataDir });
  const plans: DatasetPlan[] = [];
  for (const ref of config.datasets) {
    const source = await ensureDataset(ref, dataDir, { pull: config.pull, log: (line) => log(`data: ${line}`) });
    if (plans.some((p) => p.source.name === source.name)) {
      throw new InputError(`dataset "${source.name}" is listed twice; give one of them another name`, 'datasets');
    }
    const catalog = await readCatalog(source);
    const selected = selectQuestions(catalog, ref, config.seed);
    // An empty selection would "succeed" with nothing measured; say so before any work.
    if (catalog.length === 0) throw new InputError('the dataset holds no questions', source.path);
    if (selected.size === 0) throw new InputError('no questions left after questionIds / sample / limit', `${source.path} (dataset "${source.name}")`);
    const kept = catalog.filter((c) => selected.has(c.questionId));
    const files = filesOf(kept);
    // Gold for the judge only (never a method): read before any work, so a missing audit file costs nothing.
    const errata = 'gold' in ref && ref.gold?.answers === 'errata' ? await loadErrata(dataDir) : undefined;
    plans.push({ source, selected, ...(files ? { files } : {}), ...(errata ? { errata } : {}) });
  }
  return plans;
}

function methodRow(m: ConfiguredMethod): MethodRow {
  const c = m.impl.capabilities;
  return {
    method: m.id,
    kind: m.kind,
    granularity: m.index.granularity,
    k: m.k,
    output: c.output,
    upperBound: c.oracleType === true,
    degraded: c.degraded ?? null,
    capabilities: { ...c },
  };
}

function storeCheckpoints(store: ResultStore, runId: string, methodId: string): Checkpoints {
  return {
    has: async (key) => (await store.getCheckpoint(runId, methodId, key)) !== undefined,
    get: (key) => store.getCheckpoint(runId, methodId, key),
    put: (key, value) => store.putCheckpoint(runId, methodId, key, value),
  };
}
