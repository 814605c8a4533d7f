/**
 * The run's datasets, planned before any question is computed: each pulled if the config asks, its questions
 * selected (questionIds / sample / limit), and given its methods — the experiment's own, or those a dataset entry's
 * `index` / `methods` settings patch — with the questions a method was fitted on left out.
 */
import type { ExperimentConfig } from '../../core/config.ts';
import { configForDataset, hasMethodPatch } from '../../core/dataset-methods.ts';
import { InputError } from '../../core/errors.ts';
import {
  type CatalogEntry,
  ensureDataset,
  filesOf,
  readCatalog,
  resolveDataDir,
  verifySource,
  type SourceLockOptions,
} from '../../data/index.ts';
import { loadErrata } from '../../data/locomo-audit.ts';
import { longMemEvalErrata } from '../../data/longmemeval-errata.ts';
import { createMethods, type ConfiguredMethod } from '../methods/create-methods.ts';
import type { LoadedExperiment } from '../config/load-config.ts';
import type { DatasetPlan } from '../run-dataset.ts';
import { selectQuestions } from '../select.ts';
import type { RunShard } from '../shards/shard-source.ts';
import { applyShard } from './shard-datasets.ts';

/** One dataset of the run: its selected questions, the config as it sees it (its methods patched), its methods. */
export interface SessionDataset {
  plan: DatasetPlan;
  config: ExperimentConfig;
  methods: ConfiguredMethod[];
}

/** Every dataset of the experiment, planned and given its methods; `base` are the experiment's own methods. */
export async function planSessionDatasets(
  exp: LoadedExperiment,
  base: ConfiguredMethod[],
  dataDirFlag: string | undefined,
  log: (line: string) => void,
  lock: SourceLockOptions = {},
  shard?: RunShard,
): Promise<SessionDataset[]> {
  const planned = await planDatasets(exp.config, dataDirFlag, log, lock);
  const methods = await datasetMethods(exp, base);
  const datasets = planned.map(({ plan }, i) => ({ plan, ...methods[i]! }));
  for (const d of datasets) excludeFittedQuestions(d.plan, d.methods, log);
  if (shard)
    applyShard(
      datasets.map((d) => d.plan),
      planned.map((p) => p.kept),
      shard,
      log,
    );
  return datasets;
}

async function planDatasets(
  config: ExperimentConfig,
  dataDirFlag: string | undefined,
  log: (l: string) => void,
  lock: SourceLockOptions,
): Promise<{ plan: DatasetPlan; kept: CatalogEntry[] }[]> {
  const dataDir = resolveDataDir({ flag: dataDirFlag, config: config.dataDir });
  const plans: { plan: DatasetPlan; kept: CatalogEntry[] }[] = [];
  for (const ref of config.datasets) {
    const source = await ensureDataset(ref, dataDir, { pull: config.pull, log: (line) => log(`data: ${line}`) });
    if (plans.some((p) => p.plan.source.name === source.name)) {
      throw new InputError(`dataset "${source.name}" is listed twice; give one of them another name`, 'datasets');
    }
    // The lock file as `data info` checks it; with --allow-unlocked the differences go into the run's provenance.
    const unlocked = await verifySource(source, lock);
    for (const u of unlocked) log(`warning: ${source.name}: running on unlocked data (--allow-unlocked): ${u}`);
    const catalog = await readCatalog(source);
    const selected = selectQuestions(catalog, ref, config.seed);
    // An empty selection would "succeed" with nothing measured; say so before any work.
    if (catalog.length === 0) throw new InputError('the dataset holds no questions', source.path);
    if (selected.size === 0)
      throw new InputError(
        'no questions left after questionIds / sample / limit',
        `${source.path} (dataset "${source.name}")`,
      );
    const kept = catalog.filter((c) => selected.has(c.questionId));
    const files = filesOf(kept);
    // Gold for the judge only (never a method): read before any work, so a missing audit file costs nothing.
    const wantsErrata = 'gold' in ref && ref.gold?.answers === 'errata';
    if (wantsErrata && !config.qa)
      log(
        `${source.name}: gold.answers: errata changes the judged answers only; without a qa: block it does nothing here`,
      );
    const errata = !wantsErrata
      ? undefined
      : source.format === 'longmemeval'
        ? longMemEvalErrata()
        : await loadErrata(dataDir);
    plans.push({
      plan: {
        source,
        selected,
        ...(files ? { files } : {}),
        ...(errata ? { errata } : {}),
        ...(unlocked.length > 0 ? { unlocked } : {}),
      },
      kept,
    });
  }
  return plans;
}

/**
 * Each dataset's methods: the experiment's own, or — for a dataset entry with `index` / `methods` settings — the
 * same methods built from the patched config (src/core/dataset-methods.ts), every one validated before any work.
 */
async function datasetMethods(
  exp: LoadedExperiment,
  base: ConfiguredMethod[],
): Promise<{ config: ExperimentConfig; methods: ConfiguredMethod[] }[]> {
  const { config } = exp;
  return Promise.all(
    config.datasets.map(async (ref, i) => {
      if (!hasMethodPatch(ref)) return { config, methods: base };
      const where = `${exp.path}: datasets.${i} (${ref.name ?? ('path' in ref ? ref.path : '')})`;
      const patched = configForDataset(config, i, exp.path);
      return { config: patched, methods: await createMethods(patched, where, exp.configHash) };
    }),
  );
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
    log(
      `${plan.source.name}: ${before - plan.selected.size} questions left out (a method was fitted or calibrated on them)`,
    );
  }
}

/** Every method of the run, across datasets (a method shared by datasets appears once per dataset). */
export function everyMethod(datasets: readonly SessionDataset[]): ConfiguredMethod[] {
  return datasets.flatMap((d) => d.methods);
}

/** Questions selected across datasets. */
export function questionCount(datasets: readonly SessionDataset[]): number {
  return datasets.reduce((n, d) => n + d.plan.selected.size, 0);
}

/** The most distinct index specs any one dataset's methods use (sizes the index cache). */
export function distinctSpecs(datasets: readonly SessionDataset[]): number {
  return Math.max(...datasets.map((d) => new Set(d.methods.map((m) => JSON.stringify(m.index))).size));
}
