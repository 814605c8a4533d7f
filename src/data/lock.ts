/**
 * The data lock file `<dataDir>/adaptmr-data.lock.json`: what `adaptmr data pull` fetched (repo, revision asked,
 * commit resolved, sha256, size, time). Later pulls and every command that reads a dataset verify its files against it
 * (lock-check.ts); a dataset with no entry (e.g. a hand-placed copy) loads without a check.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import { sha256Memoised } from './hash.ts';

export const LOCK_FILE = 'adaptmr-data.lock.json';

export const LockedFileSchema = z.object({
  /** Relative to the entry's `path` (a folder). */
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});
export type LockedFile = z.infer<typeof LockedFileSchema>;

export const LockEntrySchema = z.object({
  dataset: z.string(),
  /** `xiaowu0162/longmemeval-cleaned` (HF dataset) or `snap-research/locomo` (GitHub). */
  repo: z.string(),
  revision: z.string(),
  commit: z.string(),
  /** Relative to the data directory. */
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
  url: z.string().optional(),
  fetchedAt: z.string(),
  /**
   * A dataset of several files (`BenchmarkDataset.pin`): `path` is their folder, each file is checked on its own, and
   * `sha256` is that of the listing (`listingSha256`).
   */
  files: z.array(LockedFileSchema).optional(),
});
export type LockEntry = z.infer<typeof LockEntrySchema>;

export const LockFileSchema = z.object({
  version: z.literal(1),
  datasets: z.record(z.string(), LockEntrySchema),
});
export type LockFile = z.infer<typeof LockFileSchema>;

export function lockPath(dataDir: string): string {
  return join(resolve(dataDir), LOCK_FILE);
}

export async function readLock(dataDir: string): Promise<LockFile> {
  const file = lockPath(dataDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { version: 1, datasets: {} };
    throw new InputError(
      `the lock file cannot be read (${code ?? String(err)}); fix its permissions or remove it`,
      file,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError(
      'the lock file is not valid JSON (cut short or edited?); restore it or pull the datasets again',
      file,
    );
  }
  const parsed = LockFileSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new InputError(`field \`${first?.path.join('.') ?? ''}\`: ${first?.message ?? 'invalid'}`, file);
  }
  return parsed.data;
}

/** Merges one entry into the lock file (written to a temp file, then renamed). */
export async function writeLockEntry(dataDir: string, entry: LockEntry): Promise<void> {
  const lock = await readLock(dataDir);
  lock.datasets[entry.dataset] = entry;
  const sorted: LockFile = {
    version: 1,
    datasets: Object.fromEntries(Object.entries(lock.datasets).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  const file = lockPath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(sorted, null, 2)}\n`);
  await rename(tmp, file);
}

export function lockEntryFor(lock: LockFile, dataDir: string, path: string): LockEntry | undefined {
  const rel = relative(resolve(dataDir), resolve(path));
  return Object.values(lock.datasets).find((e) => e.path === rel);
}

/** sha256 of a many-file entry's listing: one `<sha256>  <path>` line per file (sorted by path), as sha256sum prints. */
export function listingSha256(files: readonly LockedFile[]): string {
  const lines = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => `${f.sha256}  ${f.path}\n`);
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** The files of a many-file entry that are missing or whose sha256 differs from the lock file's (empty: all verified). */
export async function verifyLockedFiles(dataDir: string, entry: LockEntry): Promise<string[]> {
  const bad: string[] = [];
  for (const f of entry.files ?? []) {
    const file = join(resolve(dataDir), entry.path, f.path);
    try {
      if ((await sha256Memoised(file)).sha256 !== f.sha256) bad.push(`${f.path} (sha256 differs)`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') bad.push(`${f.path} (missing)`);
      else throw err;
    }
  }
  return bad;
}

/** What differs between `path` and its lock entry, if it has one: one phrase per file (empty: all verified). */
export interface LockCheck {
  entry: LockEntry;
  problems: string[];
}

/**
 * Checks `path` against its lock entry: a file's sha256, or a many-file entry's files — each locked file present
 * with its sha256, and no data file the loader reads (`dataFiles`, absolute) that the lock file does not list.
 */
export async function checkLocked(
  dataDir: string,
  path: string,
  dataFiles: readonly string[] = [],
): Promise<LockCheck | undefined> {
  const entry = lockEntryFor(await readLock(dataDir), dataDir, path);
  if (!entry) return undefined;
  if (entry.files) {
    const problems = await verifyLockedFiles(dataDir, entry);
    const listed = new Set(entry.files.map((f) => f.path));
    const folder = join(resolve(dataDir), entry.path);
    for (const f of dataFiles) {
      const rel = relative(folder, f).split(sep).join('/');
      if (!listed.has(rel)) problems.push(`${rel} (not in the lock file)`);
    }
    return { entry, problems };
  }
  const { sha256 } = await sha256Memoised(path);
  return { entry, problems: sha256 === entry.sha256 ? [] : [`sha256 ${sha256} differs from ${entry.sha256}`] };
}

/** The one-line refusal for a failed check: what differs, where it was pulled from, what to do. */
export function lockRefusal(dataDir: string, path: string, check: LockCheck): InputError {
  const { entry, problems } = check;
  const what = entry.files
    ? `${problems.length} of ${entry.files.length} files differ from ${lockPath(dataDir)} (${problems.slice(0, 3).join(', ')}${problems.length > 3 ? ', …' : ''})`
    : `${problems[0]} recorded in ${lockPath(dataDir)}`;
  return new InputError(
    `${what}, pulled from ${entry.repo}@${entry.commit}; the data changed, is damaged or holds files never pulled. ` +
      `Run \`adaptmr data pull ${entry.dataset} --force\` (and remove files it did not pull), or pass --allow-unlocked to run on it on purpose (recorded in the results).`,
    path,
  );
}

/** Throws when `path` has a lock entry and differs from it; returns the entry checked, if any. */
export async function verifyLocked(
  dataDir: string,
  path: string,
  dataFiles: readonly string[] = [],
): Promise<LockEntry | undefined> {
  const check = await checkLocked(dataDir, path, dataFiles);
  if (check && check.problems.length > 0) throw lockRefusal(dataDir, path, check);
  return check?.entry;
}
