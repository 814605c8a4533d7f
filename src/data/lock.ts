/**
 * The data lock file `<dataDir>/adaptmr-data.lock.json`: what `adaptmr data pull` fetched (repo, revision asked,
 * commit resolved, sha256, size, time). Later pulls and `loadDataset` verify the file's sha256 against it; a
 * dataset with no entry (e.g. a hand-placed copy) loads without a check.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
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
   * A dataset of several files (BEAM, MemDaily): `path` is their folder, each file is checked on its own, and
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
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, datasets: {} };
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError('not valid JSON', file);
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

/** Throws when `path` has a lock entry and its sha256 differs; returns the entry checked, if any. */
export async function verifyLocked(dataDir: string, path: string): Promise<LockEntry | undefined> {
  const entry = lockEntryFor(await readLock(dataDir), dataDir, path);
  if (!entry) return undefined;
  if (entry.files) {
    const bad = await verifyLockedFiles(dataDir, entry);
    if (bad.length > 0) {
      throw new InputError(
        `${bad.length} of ${entry.files.length} files differ from ${lockPath(dataDir)} (${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ', …' : ''}), ` +
          `pulled from ${entry.repo}@${entry.commit}; the files changed or are damaged. Run \`adaptmr data pull ${entry.dataset} --force\`.`,
        path,
      );
    }
    return entry;
  }
  const { sha256 } = await sha256Memoised(path);
  if (sha256 !== entry.sha256) {
    throw new InputError(
      `sha256 ${sha256} differs from ${entry.sha256} recorded in ${lockPath(dataDir)} when it was pulled ` +
        `(${entry.repo}@${entry.commit}); the file changed or is damaged. Run \`adaptmr data pull ${entry.dataset} --force\`.`,
      path,
    );
  }
  return entry;
}
