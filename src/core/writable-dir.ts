/**
 * One check for every folder the harness writes into (the cache folder, output folders): create it if needed and
 * confirm it takes writes, else an error naming the folder and the reason. Checking `access(W_OK)` alone is not
 * enough: root passes it on a read-only mount, so a probe file is written and removed.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, SetupError, systemErrorReason } from './errors.ts';

function probe(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `.adaptmr-write-test-${process.pid}`);
  writeFileSync(file, '');
  rmSync(file, { force: true });
}

/**
 * Throws an InputError (a SetupError with `setup: true`: the whole run depends on it and stops) naming `dir` when
 * it cannot be created or written. `hint` says how to point elsewhere (e.g. the env variable to set).
 */
export function ensureWritableDir(dir: string, what: string, hint: string, opts: { setup?: boolean } = {}): void {
  try {
    probe(dir);
  } catch (err) {
    const sys = err as { path?: unknown };
    const at =
      typeof sys.path === 'string' && sys.path !== dir && !sys.path.startsWith(join(dir, '.adaptmr-write-test'))
        ? ` at ${sys.path}`
        : '';
    const reason = (systemErrorReason(err) ?? (err instanceof Error ? err.message : String(err))) + at;
    const message = `${what} is not writable (${reason}); ${hint}`;
    throw opts.setup ? new SetupError(message, dir) : new InputError(message, dir);
  }
}

export const CACHE_DIR_HINT = 'set ADAPTMR_CACHE_DIR to a writable folder';
