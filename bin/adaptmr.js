#!/usr/bin/env node
// Entry for the `adaptmr` command. Runs the compiled CLI, bundled (dist/bundle/cli.js: tsc's output in dist/src,
// bundled by scripts/bundle.mjs; `npm run build`, which `npm install` runs through `prepare`), so no TypeScript is
// transpiled at start-up and a few files load instead of hundreds of modules. In a development checkout whose dist/ is missing or
// older than a source file, it says so on stderr and runs the TypeScript sources through tsx instead: correct, only
// slower to start.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const compiled = join(root, 'dist', 'bundle', 'cli.js');
const stamp = join(root, 'dist', 'BUILT');

/** Newest modification time of the .ts sources under `dir` (0 when the folder is absent, as in a packed install). */
function newestSource(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function staleReason() {
  if (!existsSync(compiled) || !existsSync(stamp)) return 'dist/ is not built';
  const built = statSync(stamp).mtimeMs;
  if (Math.max(...['src', 'baselines', 'benchmarks'].map((d) => newestSource(join(root, d)))) > built) {
    return 'dist/ is older than the TypeScript sources';
  }
  return undefined;
}

const reason = staleReason();
if (reason === undefined) {
  await import(pathToFileURL(compiled).href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    console.error(`adaptmr: ${reason} and tsx is not installed; run \`npm run build\` (or \`npm install\`) first`);
    process.exit(2);
  }
  console.error(`adaptmr: ${reason}; running the sources through tsx (run \`npm run build\` for a fast start)`);
  register();
  await import(pathToFileURL(join(root, 'src', 'cli.ts')).href);
}
