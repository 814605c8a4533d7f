/**
 * The source files the repository's structural tests read (src/architecture.test.ts, src/function-length.test.ts):
 * every file under some folders whose name matches, keyed by its path from the repository root, and which of them
 * are tests or test fixtures (exempt from the rules for shipped code).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Tests, `*.fixture.ts` files and anything under a `testing/` folder. */
export function isTestFile(path: string): boolean {
  return /\.test\.ts$/.test(path) || /\.fixture\.ts$/.test(path) || /(^|\/)testing\//.test(path);
}

/**
 * Path from `root` → text of every file under `dirs` (relative to `root`) whose name matches; node_modules and dot
 * folders are skipped.
 */
export function sourcesUnder(root: string, dirs: readonly string[], name: RegExp): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue;
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.test(entry)) files.set(relative(root, full), readFileSync(full, 'utf8'));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return files;
}
