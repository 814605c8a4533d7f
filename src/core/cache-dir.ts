/**
 * Where derived files are kept (the wink binary vectors, the embeddings DuckDB, dataset file facts): an explicit option,
 * else env `ADAPTMR_CACHE_DIR`, else `<repo>/.cache` (gitignored). Also an atomic file write, so two processes
 * writing the same cache file can never leave a torn one behind.
 */
import { join } from 'node:path';
import { writeFilesAtomic } from './atomic-write.ts';
import { PACKAGE_ROOT } from './package-root.ts';

export function resolveCacheDir(option?: string): string {
  if (option !== undefined && option !== '') return option;
  const env = process.env.ADAPTMR_CACHE_DIR;
  if (env !== undefined && env !== '') return env;
  return join(PACKAGE_ROOT, '.cache');
}

/** Writes to a unique temp file in the same directory, then renames it over `path` (atomic-write.ts). */
export function writeFileAtomic(path: string, chunks: readonly Uint8Array[]): void {
  writeFilesAtomic([{ path, data: Buffer.concat(chunks) }]);
}
