/**
 * Runs one experiment: resolves every component first (an unknown name fails before any work), streams each
 * dataset's selected questions, builds or reuses the memory index per haystack, runs every method, scores the
 * retrieval against the gold, and writes each question's rows in one transaction. A rerun of the same config into
 * the same file resumes: questions already written are skipped, never duplicated.
 */
import type { ExperimentConfig } from '../core/config.ts';
import { InputError, errorMessage } from '../core/errors.ts';
import { redactSecrets } from '../core/secrets.ts';
import type { Checkpoints, Embedder } from '../core/interfaces.ts';
import {
  ensureDataset,
  hashDatasetFiles,
  readCatalog,
  resolveDataDir,
  type DataIssue,
} from '../data/index.ts';
import { embedders, openEmbeddingCache } from '../index/index.ts';
import { openResultStore, refreshStats } from '../store/index.ts';
import type { MethodRow, ResultStore, RunRecord } from '../store/types.ts';
import type { LlmProvider } from '../core/llm.ts';
import { createMethods, type ConfiguredMethod } from './create-methods.ts';
import { methods as methodRegistry } from './method-registry.ts';
import { IndexCache } from './index-cache.ts';
import type { LoadedExperiment } from './load-config.ts';
import { createProgress } from './progress.ts';
import { gitState, packageVersions } from './provenance.ts';
import { workerCount, workerObstacle } from './parallel/eligible.ts';
import { runDatasetInWorkers } from './parallel/pool.ts';
import { runDatasetInProcess, type DatasetPlan, type DatasetRunState } from './run-dataset.ts';
import { selectQuestions } from './select.ts';

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
  log?: (line: string) => void;
  /** Called after each question's rows are committed (the CLI's --verbose prints it). */
  onQuestionWritten?: (dataset: string, questionId: string) => void;
}

export interface RunSummary {
  runId: string;
  out: string;
  /** Questions selected across datasets. */
  questions: number;
  /** Questions written by this invocation. */
  written: number;
  /** Questions already complete in the results file (resume). */
  skipped: number;
  /** Method runs that ended in an error row. */
  errors: number;
  dataIssues: number;
  wallMs: number;
}

export async function runExperiment(exp: LoadedExperiment, opts: RunOptions): Promise<RunSummary> {
  const started = performance.now();
  const { config } = exp;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${redactSecrets(line)}\n`));

  // 1. Resolve every component before touching data, so a typo costs nothing.
  if (config.qa && !config.llm?.roles.reader) {
    throw new InputError('qa needs a reader model: add llm.roles.reader (and llm.roles.judge for LLM-judge verdicts)', exp.path);
  }
  // The LLM client (openai SDK, tokenizer) loads only for experiments that call an LLM.
  const llm = config.llm ? (await import('../llm/provider.ts')).createLlmProvider(config.llm) : undefined;
  const methods = await createMethods(config, exp.path, exp.configHash);
  const embedderOptions = embedders.parseOptions(config.embedder.name, config.embedder.options, `${exp.path}: embedder`);
  const plans = await planDatasets(config, opts.dataDir, log);
  excludeFittedQuestions(plans, methods, log);
  // The embedding cache (a DuckDB file) is opened only for an embedder that uses it.
  const cached = typeof embedderOptions === 'object' && embedderOptions !== null && 'cache' in embedderOptions && embedderOptions.cache === true;
  const embeddingCache = cached ? await openEmbeddingCache() : undefined;
  try {
    const embedder = await embedders.create(config.embedder.name, config.embedder.options, embeddingCache ? { cache: embeddingCache } : {}, `${exp.path}: embedder`);
    logUnregisteredPlanSystems(config, log);
    // Warm-up (methods created — models loaded —, embedder vectors loaded, question catalogs read) is not part of any
    // question's latency; it is stored once per run (checkpoint `warmup` of the pseudo-method RUN_SCOPE).
    const warmupMs = performance.now() - started;
    return await runPlans(exp, plans, methods, embedder, llm, opts, log, started, warmupMs);
  } finally {
    await embeddingCache?.close();
  }
}

async function runPlans(
  exp: LoadedExperiment,
  plans: DatasetPlan[],
  methods: ConfiguredMethod[],
  embedder: Embedder,
  llm: LlmProvider | undefined,
  opts: RunOptions,
  log: (line: string) => void,
  started: number,
  warmupMs: number,
): Promise<RunSummary> {
  const { config } = exp;

  // 2. Record the run with its provenance; the id is derived from the config so a rerun resumes the same run.
  const runId = `${config.name}-${exp.configHash.slice(0, 12)}`;
  const store = await openResultStore(opts.out);
  try {
    const git = await gitState();
    const record: RunRecord = {
      runId,
      name: config.name,
      configJson: JSON.stringify(config),
      configHash: exp.configHash,
      gitCommit: git.commit,
      gitDirty: git.dirty,
      packageVersions: await packageVersions(),
      datasetHashes: Object.fromEntries(
        await Promise.all(plans.map(async (p) => [p.source.name, { path: p.source.path, files: await hashDatasetFiles(p.source) }] as const)),
      ),
      seed: config.seed,
      startedAt: new Date().toISOString(),
      status: 'running',
    };
    await store.upsertRun(record);
    await store.upsertMethods(runId, methods.map(methodRow));
    await store.putCheckpoint(runId, RUN_SCOPE, 'warmup', JSON.stringify({ warmupMs, at: record.startedAt }));
    const done = await store.completedKeys(runId);
    const total = plans.reduce((n, p) => n + p.selected.size, 0);
    const progress = createProgress(total, opts.progress ?? true);
    const counters = { written: 0, skipped: 0, errors: 0 };
    const issues: DataIssue[] = [];
    // Questions arrive grouped by haystack, so one index per spec per in-flight question is enough to reuse them.
    const indexes = new IndexCache(embedder, ((opts.concurrency ?? config.concurrency) + 1) * distinctSpecs(config));
    const workers = workerCount(config, methods, total, opts.workers);
    if ((opts.workers ?? 0) > 0 && workers === 0) log(`workers: not used (${workerObstacle(config, methods)})`);
    try {
      for (const plan of plans) {
        const state: DatasetRunState = {
          config,
          runId,
          methods,
          store,
          done,
          indexes,
          progress,
          counters,
          issues,
          concurrency: opts.concurrency ?? config.concurrency,
          onWritten: opts.onQuestionWritten ?? (() => {}),
          llm,
          checkpoints: (methodId) => storeCheckpoints(store, runId, methodId),
        };
        if (workers > 0) await runDatasetInWorkers(plan, state, { workers, path: exp.path, configHash: exp.configHash });
        else await runDatasetInProcess(plan, state);
      }
    } catch (err) {
      await store.upsertRun({ ...record, endedAt: new Date().toISOString(), status: 'failed' });
      throw err;
    } finally {
      progress.stop();
    }
    // Methods release what they hold outside this process (server-side namespaces) once every question is done.
    for (const m of methods) await m.impl.close?.();
    await store.upsertRun({ ...record, endedAt: new Date().toISOString(), status: 'done' });
    // Data defects first: a question whose gold is missing from its haystack must not vanish from averages unsaid.
    if (issues.length > 0) log(`data: ${issues.length} defects repaired or reported (\`adaptmr data info --verbose\` lists them)`);
    // Bootstrap CIs and paired comparisons of the whole file (every run in it), recomputed from the rows. The rows are
    // committed already, so a failure here loses nothing; `adaptmr report` retries.
    try {
      const stats = await refreshStats(store);
      if (stats.recomputed) log(`stats: ${stats.cells} CI cells, ${stats.comparisons} paired comparisons in ${(stats.ms / 1000).toFixed(1)} s`);
    } catch (err) {
      log(`stats: not computed (${errorMessage(err)}); \`adaptmr report\` computes them`);
    }
    return { runId, out: opts.out, questions: total, ...counters, dataIssues: issues.length, wallMs: performance.now() - started };
  } finally {
    await store.close();
  }
}

/** The checkpoints' method column for run-wide markers (the run's warm-up time). */
export const RUN_SCOPE = '(run)';

/** The plan's systems an experiment declares (`plan.systems`) that this harness has no method for yet. */
function logUnregisteredPlanSystems(config: ExperimentConfig, log: (line: string) => void): void {
  const missing = (config.plan?.systems ?? []).filter((name) => !methodRegistry.names().includes(name));
  if (missing.length > 0) log(`plan: systems not available in this harness yet (not run): ${missing.join(', ')}`);
}

/**
 * Leaves out of every dataset the questions some method was fitted on (e.g. an abstention calibration split), so
 * all methods are compared on the same held-out questions.
 */
function excludeFittedQuestions(plans: DatasetPlan[], methods: ConfiguredMethod[], log: (line: string) => void): void {
  const fitted = new Set(methods.flatMap((m) => [...(m.impl.excludedQuestionIds ?? [])]));
  if (fitted.size === 0) return;
  for (const plan of plans) {
    const before = plan.selected.size;
    for (const id of fitted) plan.selected.delete(id);
    if (plan.selected.size < before) {
      log(`${plan.source.name}: ${before - plan.selected.size} questions left out (a method was fitted or calibrated on them)`);
    }
  }
}

function distinctSpecs(config: ExperimentConfig): number {
  return new Set(config.methods.map((m) => JSON.stringify(m.index))).size;
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
    const files = kept.every((c) => c.file !== undefined) ? new Set(kept.map((c) => c.file!)) : undefined;
    plans.push(files ? { source, selected, files } : { source, selected });
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
