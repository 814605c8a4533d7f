/**
 * The lock check every command that reads a dataset runs (run, sweep, data info, classifier, score-answers, the
 * report's text look-up): each file the loader reads is checked against the lock file of the data directory it was
 * found in — a changed file, a missing one, and a data file the lock never listed (an extra chat folder of a tier) are
 * refused as `data info` refuses them, or, with `--allow-unlocked`, returned so the run records them.
 */
import { checkLocked, lockRefusal } from './lock.ts';
import { sourceDataFiles } from './source-hash.ts';
import type { DatasetSource } from './source.ts';

export interface SourceLockOptions {
  /** Run on data that differs from its lock file on purpose: return the differences instead of refusing. */
  allowUnlocked?: boolean | undefined;
}

/**
 * Checks a source's files (and LoCoMo-Plus's LoCoMo file) against their lock files. Throws a one-line InputError on
 * the first difference, or, when `allowUnlocked`, returns every difference as `<path>: <what>` (empty: verified).
 */
export async function verifySource(source: DatasetSource, opts: SourceLockOptions = {}): Promise<string[]> {
  const out: string[] = [];
  const checks: [string, string, string[]][] = [];
  if (source.root)
    checks.push([source.root, source.path, source.kind === 'folder' ? await sourceDataFiles(source) : []]);
  if (source.companion) checks.push([source.companion.root, source.companion.path, []]);
  for (const [root, path, files] of checks) {
    const check = await checkLocked(root, path, files);
    if (!check || check.problems.length === 0) continue;
    if (!opts.allowUnlocked) throw lockRefusal(root, path, check);
    out.push(...check.problems.map((p) => `${path}: ${p}`));
  }
  return out;
}
