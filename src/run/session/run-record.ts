/**
 * The run as first recorded: its `runs` row with the provenance (git state, package versions, the data files'
 * hashes), one `methods` row per method, and the run-level checkpoints (warm-up time, the model and calibration files
 * read). The provenance waits on another process and the disk, so it is read while DuckDB opens the results file
 * (`readProvenance` starts at once; the caller awaits it after the open).
 */
import type { ExperimentConfig } from '../../core/config.ts';
import { hashDatasetFiles } from '../../data/index.ts';
import type { SpoolRun } from '../../store/spool.ts';
import type { MethodRow, RunRecord } from '../../store/types.ts';
import type { ConfiguredMethod } from '../methods/create-methods.ts';
import type { LoadedExperiment } from '../config/load-config.ts';
import { datasetDigests, type gitState, inputFileDigests, packageVersions } from '../record/provenance.ts';
import type { SessionDataset } from './datasets.ts';

/** The checkpoints' method column for run-wide markers (the run's warm-up time). */
export const RUN_SCOPE = '(run)';
/** The run-level checkpoint listing the model and calibration files the run read, with their sha256. */
export const INPUT_FILES_KEY = 'input-files';

type Provenance = Awaited<ReturnType<typeof readProvenance>>;

/** Starts reading the run's provenance; `git` is the git child process the session started first. */
export function readProvenance(git: ReturnType<typeof gitState>, datasets: readonly SessionDataset[]) {
  const provenance = Promise.all([
    git,
    packageVersions(),
    Promise.all(
      datasets.map(
        async ({ plan: p }) =>
          [
            p.source.name,
            {
              ...datasetDigests(p.source, await hashDatasetFiles(p.source)),
              ...(p.unlocked ? { unlocked: p.unlocked } : {}),
            },
          ] as const,
      ),
    ),
    inputFileDigests(datasets.map((d) => ({ dataset: d.plan.source.name, config: d.config }))),
  ]);
  provenance.catch(() => {}); // awaited later; a failure to open the file first must not surface as an unhandled rejection
  return provenance;
}

/** The run's own rows, as the results file or its spool receives them before any question. */
export function runStart(
  exp: LoadedExperiment,
  runId: string,
  methods: readonly ConfiguredMethod[],
  [git, versions, hashes, inputFiles]: Provenance,
  warmupMs: number,
): SpoolRun {
  const config: ExperimentConfig = exp.config;
  const run: RunRecord = {
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
  // Warm-up (methods created — models loaded —, embedder vectors loaded, question catalogs read) is not part of any
  // question's latency; it is stored once per run. The model and calibration files the methods read, with their
  // sha256 (provenance.ts), are a run-level checkpoint too, so the row tables keep their schema.
  const checkpoints = [
    { method: RUN_SCOPE, key: 'warmup', value: JSON.stringify({ warmupMs, at: run.startedAt }) },
    { method: RUN_SCOPE, key: INPUT_FILES_KEY, value: JSON.stringify({ files: inputFiles }) },
  ];
  // One row per method with its declared index; a dataset entry may change the units on that dataset (its score and
  // retrieval rows carry their own granularity).
  return { run, methods: methods.map(methodRow), checkpoints };
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
