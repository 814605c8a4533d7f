/**
 * The package's root folder (where package.json is), found by walking up from this file, so paths like `.cache`
 * resolve the same from the TypeScript sources (src/core/) and from the compiled output (dist/src/core/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return join(from, '..', '..');
  }
}

export const PACKAGE_ROOT: string = findRoot(import.meta.dirname);

/** This package's version from its package.json (`adaptmr --version`; yargs' own lookup fails inside the bundle). */
export function packageVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
