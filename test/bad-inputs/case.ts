/**
 * The shape of one malformed-input case: where it is (a fresh temp folder, the loopback server's URL), how it
 * writes its bad input, the CLI arguments, and what must come back — the exit code and the first line of stderr.
 * bad-inputs.test.ts runs every case through the real CLI (`node bin/adaptmr.js`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReplyMode } from './fixtures.ts';

export interface CaseContext {
  /** The case's own temp folder, also the CLI's working directory. */
  dir: string;
  /** The loopback server's base URL (`http://127.0.0.1:<port>/v1`) when the case asks for one. */
  url: string;
}

export interface BadInputCase {
  name: string;
  /** Which part of the input it breaks. */
  area: 'config' | 'dataset' | 'flags' | 'paths' | 'results' | 'model' | 'api';
  setup?: (c: CaseContext) => unknown;
  args: (c: CaseContext) => string[];
  env?: (c: CaseContext) => Record<string, string>;
  /** Start a loopback server that answers this way. */
  server?: ReplyMode;
  exit: number;
  /** The first line of stderr (the tsx fallback notice of bin/adaptmr.js aside). */
  first: RegExp;
  /** The `error:` line, when the command logs progress before it fails (`data pull`). */
  errorLine?: RegExp;
}

/** Writes `content` to `rel` under the case folder (creating folders) and returns the absolute path. */
export function put(c: CaseContext, rel: string, content: string | Uint8Array): string {
  const path = join(c.dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/** `run exp.yaml --out results.duckdb --no-progress`, plus extra flags. */
export function runArgs(...extra: string[]): () => string[] {
  return () => ['run', 'exp.yaml', '--out', 'results.duckdb', '--no-progress', ...extra];
}
