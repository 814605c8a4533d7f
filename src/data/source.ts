/**
 * Where a dataset lives: the data directory (flag > ADAPTMR_DATA_DIR > config `dataDir` > ./datasets; any of them
 * may be a search path like PATH) and the file or folder a dataset reference resolves to. Named datasets accept the
 * official single-array file or a folder of one file per question (e.g. longmemeval/{oracle,s_cleaned}).
 */
import { statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import type { BenchmarkReader } from '../core/benchmark.ts';
import { benchmarkNamed, datasetEntry, datasetNames, installedBenchmarks } from '../core/benchmarks-installed.ts';
import type { DatasetRef } from '../core/config.ts';
import { InputError } from '../core/errors.ts';
import { unknownName } from '../core/registry.ts';

/** How a source is read: the name of its benchmark (src/core/benchmark.ts), whose reader reads it. */
export type DatasetFormat = string;

export interface DatasetSource {
  /** Name used in results (`longmemeval-s`, `locomo`, or the user-given / file name). */
  name: string;
  format: DatasetFormat;
  /** Absolute path of the array file or the folder. */
  path: string;
  kind: 'file' | 'folder';
  /** The data directory it was found in (named datasets): its lock file verifies the file. */
  root?: string;
  /** The file of another dataset its items are stitched into (`BenchmarkDataset.companion`), and its data directory. */
  companion?: { path: string; root: string };
  /** `gold: { update: both }`: superseded evidence counts as gold too (src/data/supersession.ts). */
  goldUpdate?: 'current' | 'both';
  /** The config's options for it under its benchmark's key (`Benchmark.datasetOptions`), parsed. */
  options?: unknown;
}

/**
 * The default data directory: the project's own `./datasets` (where `adaptmr data pull` writes). Data kept anywhere
 * else is reached through ADAPTMR_DATA_DIR, the config's `dataDir` or `--data-dir`.
 */
export const DEFAULT_DATA_DIRS = './datasets';

/** The directories of a data-dir value, which may be a search path like PATH (`dirA:dirB`); the first is primary. */
export function dataDirs(dataDir: string): string[] {
  return dataDir
    .split(delimiter)
    .filter((d) => d.trim() !== '')
    .map((d) => resolve(d));
}

/** Where downloads go: the first directory of the search path. */
export function primaryDataDir(dataDir: string): string {
  return dataDirs(dataDir)[0] ?? resolve('./datasets');
}

export function resolveDataDir(opts: { flag?: string | undefined; config?: string | undefined }): string {
  // An empty flag or variable counts as unset.
  const dir = opts.flag || process.env.ADAPTMR_DATA_DIR || opts.config || DEFAULT_DATA_DIRS;
  return dataDirs(dir).join(delimiter);
}

/**
 * Where a dataset's companion (a file of another dataset its items are stitched into, `BenchmarkDataset.companion`)
 * is found: its first copy on the search path.
 */
function findCompanion(name: string, companion: { dataset: string; rel: string }, dataDir: string) {
  const tried: string[] = [];
  for (const root of dataDirs(dataDir)) {
    const path = join(root, companion.rel);
    if (kindOf(path) === 'file') return { path, root };
    tried.push(path);
  }
  throw new InputError(
    `dataset "${name}" is stitched into ${companion.dataset}, which was not found; tried ${tried.join(' and ')}. ` +
      `Run \`adaptmr data pull ${companion.dataset}\`, or point --data-dir / ADAPTMR_DATA_DIR at a folder that has it.`,
  );
}

function kindOf(path: string): 'file' | 'folder' | undefined {
  try {
    const st = statSync(path);
    return st.isDirectory() ? 'folder' : st.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/** A user-given file or folder (a named dataset's entry may carry its benchmark's own key, so `in` alone cannot tell). */
export function isPathRef(ref: DatasetRef): ref is Extract<DatasetRef, { path: string }> {
  return 'path' in ref && 'format' in ref;
}

export function resolveDataset(ref: DatasetRef, dataDir: string): DatasetSource {
  if (isPathRef(ref)) {
    const path = isAbsolute(ref.path) ? ref.path : resolve(ref.path);
    const kind = kindOf(path);
    if (!kind) throw new InputError(`dataset path does not exist: ${path}`, 'datasets[].path');
    const name = ref.name ?? basename(path).replace(/(\.json)?(\.gz)?$/, '');
    return { name, format: ref.format, path, kind };
  }
  const entry = datasetEntry(ref.name);
  if (!entry) throw new InputError(unknownName('dataset', ref.name, datasetNames()), 'datasets[].name');
  const { benchmark, dataset } = entry;
  const tried: string[] = [];
  for (const root of dataDirs(dataDir)) {
    for (const c of dataset.layouts) {
      const path = join(root, c.rel);
      tried.push(path);
      if (kindOf(path) !== c.kind) continue;
      const found: DatasetSource = { name: ref.name, format: benchmark.name, path, kind: c.kind, root };
      if (ref.gold?.update === 'both') found.goldUpdate = 'both';
      const options = (ref as Record<string, unknown>)[benchmark.name];
      if (options !== undefined && benchmark.datasetOptions) found.options = benchmark.datasetOptions.parse(options);
      return dataset.companion ? { ...found, companion: findCompanion(ref.name, dataset.companion, dataDir) } : found;
    }
  }
  throw new InputError(
    `dataset "${ref.name}" not found; tried ${tried.join(' and ')}. ` +
      `Run \`adaptmr data pull ${ref.name}\`, or point --data-dir / ADAPTMR_DATA_DIR at a folder that has it.`,
  );
}

/** The reader of a source's format (its benchmark's, src/core/benchmark.ts); an unknown format names the known ones. */
export function readerOf(src: Pick<DatasetSource, 'format'>): BenchmarkReader {
  const b = benchmarkNamed(src.format);
  if (!b) {
    const known = installedBenchmarks().map((x) => x.name);
    throw new InputError(unknownName('dataset format', src.format, known), 'datasets[].format');
  }
  return b.reader;
}
