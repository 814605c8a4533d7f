/**
 * Runs one experiment: resolves every component first (an unknown name fails before any work), streams each
 * dataset's selected questions, builds or reuses the memory index per haystack, runs every method, scores the
 * retrieval against the gold, and writes each question's rows in one transaction. A rerun of the same config into
 * the same file resumes: questions already written are skipped, never duplicated.
 */
import pLimit from 'p-limit';
import type { ExperimentConfig } from '../core/config.ts';
import { InputError } from '../core/errors.ts';
import { redactSecrets } from '../core/secrets.ts';
import type { Checkpoints, Embedder } from '../core/interfaces.ts';
import type { Instance } from '../core/types.ts';
import {
  ensureDataset,
  hashDatasetFiles,
  readCatalog,
  readInstances,
  resolveDataDir,
  type DataIssue,
  type DatasetSource,
} from '../data/index.ts';
import { embedders, openEmbeddingCache } from '../index/index.ts';
import { openResultStore } from '../store/index.ts';
import { completedKey, type MethodRow, type QuestionBatch, type ResultStore, type RunRecord } from '../store/types.ts';
import { createLlmProvider } from '../llm/provider.ts';
import type { LlmProvider } from '../core/llm.ts';
import { createMethods, type ConfiguredMethod } from './create-methods.ts';
import { emptyBatch, runMethod } from './question.ts';
import { IndexCache } from './index-cache.ts';
import type { LoadedExperiment } from './load-config.ts';
import { createProgress, type Progress } from './progress.ts';
import { gitState, packageVersions } from './provenance.ts';
import { selectQuestions } from './select.ts';

export interface RunOptions {
  /** Results file (DuckDB). */
  out: string;
  dataDir?: string | undefined;
  concurrency?: number | undefined;
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

interface DatasetPlan {
  source: DatasetSource;
  selected: Set<string>;
  /** Folder layouts: the files holding the selected questions, so no other file is opened. */
  files?: ReadonlySet<string>;
}

export async function runExperiment(exp: LoadedExperiment, opts: RunOptions): Promise<RunSummary> {
  const started = performance.now();
  const { config } = exp;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${redactSecrets(line)}\n`));

  // 1. Resolve every component before touching data, so a typo costs nothing.
  if (config.qa && !config.llm?.roles.reader) {
    throw new InputError('qa needs a reader model: add llm.roles.reader (and llm.roles.judge for LLM-judge verdicts)', exp.path);
  }
  const llm = config.llm ? createLlmProvider(config.llm) : undefined;
  const methods = await createMethods(config, exp.path, exp.configHash);
  embedders.parseOptions(config.embedder.name, config.embedder.options, `${exp.path}: embedder`);
  const plans = await planDatasets(config, opts.dataDir, log);
  excludeFittedQuestions(plans, methods, log);
  const embeddingCache = await openEmbeddingCache();
  try {
    const embedder = await embedders.create(config.embedder.name, config.embedder.options, { cache: embeddingCache }, `${exp.path}: embedder`);
    return await runPlans(exp, plans, methods, embedder, llm, opts, log, started);
  } finally {
    await embeddingCache.close();
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
    const done = await store.completedKeys(runId);
    const total = plans.reduce((n, p) => n + p.selected.size, 0);
    const progress = createProgress(total, opts.progress ?? true);
    const counters = { written: 0, skipped: 0, errors: 0 };
    const issues: DataIssue[] = [];
    // Questions arrive grouped by haystack, so one index per spec per in-flight question is enough to reuse them.
    const indexes = new IndexCache(embedder, ((opts.concurrency ?? config.concurrency) + 1) * distinctSpecs(config));
    try {
      for (const plan of plans) {
        await runDataset(plan, {
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
        });
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
    if (issues.length > 0) log(`data: ${issues.length} defects repaired or reported (\`adaptmr data info --verbose\` lists them)`);
    return { runId, out: opts.out, questions: total, ...counters, dataIssues: issues.length, wallMs: performance.now() - started };
  } finally {
    await store.close();
  }
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
    const kept = catalog.filter((c) => selected.has(c.questionId));
    const files = kept.every((c) => c.file !== undefined) ? new Set(kept.map((c) => c.file!)) : undefined;
    plans.push(files ? { source, selected, files } : { source, selected });
  }
  return plans;
}

interface DatasetRunState {
  config: ExperimentConfig;
  runId: string;
  methods: ConfiguredMethod[];
  store: ResultStore;
  done: Set<string>;
  indexes: IndexCache;
  progress: Progress;
  counters: { written: number; skipped: number; errors: number };
  issues: DataIssue[];
  concurrency: number;
  onWritten: (dataset: string, questionId: string) => void;
  llm: LlmProvider | undefined;
  checkpoints: (methodId: string) => Checkpoints;
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

async function runDataset(plan: DatasetPlan, s: DatasetRunState): Promise<void> {
  const limit = pLimit(s.concurrency);
  const inflight = new Set<Promise<void>>();
  let failure: unknown;
  const stream = readInstances(plan.source, {
    keep: (c) => plan.selected.has(c.questionId),
    issues: s.issues,
    ...(plan.files ? { files: plan.files } : {}),
  });
  for await (const instance of stream) {
    if (!plan.selected.has(instance.query.id)) continue;
    if (failure) break;
    // Only the computation holds a concurrency slot; the write waits in the store's group-commit queue, so the
    // next questions are computed while a commit is under way.
    const task: Promise<void> = limit(() => computeQuestion(instance, plan, s))
      .then((batch) => (batch ? writeQuestion(instance, batch, s) : undefined))
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => inflight.delete(task));
    inflight.add(task);
    // Bounded read-ahead keeps memory flat on large splits (LongMemEval M).
    if (inflight.size >= s.concurrency * 16) await Promise.race(inflight);
  }
  await Promise.all(inflight);
  if (failure) throw failure;
}

/** Runs every method not yet done on one question; undefined when the results file already has them all. */
async function computeQuestion(instance: Instance, plan: DatasetPlan, s: DatasetRunState): Promise<QuestionBatch | undefined> {
  const todo = s.methods.filter((m) => !s.done.has(completedKey(instance.dataset, instance.query.id, m.id)));
  if (todo.length === 0) {
    s.counters.skipped++;
    s.progress.tick();
    return undefined;
  }
  const batch = emptyBatch(instance, s.runId);
  const context = { config: s.config, runId: s.runId, indexes: s.indexes, llm: s.llm, protocol: plan.source.format, checkpoints: s.checkpoints };
  for (const method of todo) {
    if (await runMethod(instance, method, batch, context)) s.counters.errors++;
  }
  return batch;
}

async function writeQuestion(instance: Instance, batch: QuestionBatch, s: DatasetRunState): Promise<void> {
  await s.store.writeQuestion(batch);
  s.counters.written++;
  s.onWritten(instance.dataset, instance.query.id);
  s.progress.tick();
}
