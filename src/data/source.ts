/**
 * Where a dataset lives: the data directory (flag > ADAPTMR_DATA_DIR > config `dataDir` > ./datasets; any of them
 * may be a search path like PATH) and the file or folder a dataset reference resolves to. Named datasets accept the
 * official single-array file or a folder of one file per question (e.g. longmemeval/{oracle,s_cleaned}).
 */
import { statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import type { DatasetName, DatasetRef } from '../core/config.ts';
import { InputError } from '../core/errors.ts';

/** How a source is read: the four upstream layouts, and LoCoMo-Plus (its items stitched into LoCoMo). */
export type DatasetFormat = 'longmemeval' | 'locomo' | 'beam' | 'memdaily' | 'locomo-plus';

export interface DatasetSource {
  /** Name used in results (`longmemeval-s`, `locomo`, or the user-given / file name). */
  name: string;
  format: DatasetFormat;
  /** Absolute path of the array file or the folder. */
  path: string;
  kind: 'file' | 'folder';
  /** The data directory it was found in (named datasets): its lock file verifies the file. */
  root?: string;
  /** LoCoMo-Plus: the LoCoMo file its items are stitched into (the first `locomo/locomo10.json` of the search path), and its data directory. */
  companion?: { path: string; root: string };
  /** BEAM `gold: { update: both }`: superseded evidence counts as gold too (src/data/supersession.ts). */
  goldUpdate?: 'current' | 'both';
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

/** Candidate locations of each named dataset, relative to the data directory, in the order they are tried. */
export const NAMED_LAYOUTS: Record<
  DatasetName,
  { format: DatasetFormat; candidates: { rel: string; kind: 'file' | 'folder' }[] }
> = {
  'longmemeval-oracle': {
    format: 'longmemeval',
    candidates: [
      { rel: 'longmemeval/longmemeval_oracle.json', kind: 'file' },
      { rel: 'longmemeval/oracle', kind: 'folder' },
    ],
  },
  'longmemeval-s': {
    format: 'longmemeval',
    candidates: [
      { rel: 'longmemeval/longmemeval_s_cleaned.json', kind: 'file' },
      { rel: 'longmemeval/s_cleaned', kind: 'folder' },
    ],
  },
  'longmemeval-m': {
    format: 'longmemeval',
    candidates: [
      { rel: 'longmemeval/longmemeval_m_cleaned.json', kind: 'file' },
      { rel: 'longmemeval/m_cleaned', kind: 'folder' },
    ],
  },
  locomo: { format: 'locomo', candidates: [{ rel: 'locomo/locomo10.json', kind: 'file' }] },
  // BEAM's upstream folder `100K` is the paper's "128K" tier; one folder per chat (docs/datasets.md §4.1).
  'beam-100k': { format: 'beam', candidates: [{ rel: 'beam/chats/100K', kind: 'folder' }] },
  'beam-500k': { format: 'beam', candidates: [{ rel: 'beam/chats/500K', kind: 'folder' }] },
  memdaily: { format: 'memdaily', candidates: [{ rel: 'memdaily/messages_and_QAs', kind: 'folder' }] },
  'locomo-plus': { format: 'locomo-plus', candidates: [{ rel: 'locomo-plus/locomo_plus.json', kind: 'file' }] },
};

/** The named datasets of one source format and where each lives (a benchmark's `datasets`, src/core/benchmark.ts). */
export function namedDatasetsOf(
  format: DatasetFormat,
): { name: DatasetName; layouts: { rel: string; kind: 'file' | 'folder' }[] }[] {
  return Object.entries(NAMED_LAYOUTS)
    .filter(([, layout]) => layout.format === format)
    .map(([name, layout]) => ({ name: name as DatasetName, layouts: layout.candidates }));
}

/** Where LoCoMo-Plus finds the LoCoMo conversations it is stitched into (the same blob upstream ships). */
export const LOCOMO_PLUS_COMPANION = NAMED_LAYOUTS.locomo.candidates[0]!.rel;

function locomoCompanion(dataDir: string): { path: string; root: string } {
  const tried: string[] = [];
  for (const root of dataDirs(dataDir)) {
    const path = join(root, LOCOMO_PLUS_COMPANION);
    if (kindOf(path) === 'file') return { path, root };
    tried.push(path);
  }
  throw new InputError(
    `dataset "locomo-plus" is stitched into LoCoMo, which was not found; tried ${tried.join(' and ')}. ` +
      'Run `adaptmr data pull locomo`, or point --data-dir / ADAPTMR_DATA_DIR at a folder that has it.',
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

export function resolveDataset(ref: DatasetRef, dataDir: string): DatasetSource {
  if ('path' in ref) {
    const path = isAbsolute(ref.path) ? ref.path : resolve(ref.path);
    const kind = kindOf(path);
    if (!kind) throw new InputError(`dataset path does not exist: ${path}`, 'datasets[].path');
    const name = ref.name ?? basename(path).replace(/(\.json)?(\.gz)?$/, '');
    return { name, format: ref.format, path, kind };
  }
  const layout = NAMED_LAYOUTS[ref.name];
  const tried: string[] = [];
  for (const root of dataDirs(dataDir)) {
    for (const c of layout.candidates) {
      const path = join(root, c.rel);
      tried.push(path);
      if (kindOf(path) !== c.kind) continue;
      const found: DatasetSource = { name: ref.name, format: layout.format, path, kind: c.kind, root };
      if (ref.gold?.update === 'both') found.goldUpdate = 'both';
      return layout.format === 'locomo-plus' ? { ...found, companion: locomoCompanion(dataDir) } : found;
    }
  }
  throw new InputError(
    `dataset "${ref.name}" not found; tried ${tried.join(' and ')}. ` +
      `Run \`adaptmr data pull ${ref.name}\`, or point --data-dir / ADAPTMR_DATA_DIR at a folder that has it.`,
  );
}
