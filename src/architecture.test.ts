/**
 * The import rules of docs/architecture.md, checked on every source file (static and dynamic imports, type-only
 * included). Tests, test fixtures (`testing/`, `*.fixture.ts`) may reach across layers to build their cases; the
 * rules apply to everything that ships.
 *   1. src/core imports nothing else in the repository.
 *   2. Only the method registry (src/run/method-registry.ts) imports baselines/ from outside baselines/.
 *   3. Only src/store and the embedding cache (src/index/embedding-cache.ts) import DuckDB.
 *   4. Methods, strategies, routing and classifiers never import where gold lives: src/data, src/eval.
 *   5. Layers point down: components (data, index, llm, classify, strategies, routing, baselines) never import eval,
 *      store, report, run or tools; eval never imports store and above; store never report and above; report never
 *      run or tools; run never tools.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SCAN = ['src', 'baselines', 'scripts', 'bin'];

/** Layers from the bottom; a file may import its own layer or lower ones. */
const LAYERS: Record<string, number> = {
  core: 0,
  data: 1, index: 1, llm: 1,
  classify: 2, strategies: 2,
  routing: 3, baselines: 3,
  eval: 4,
  store: 5,
  report: 6,
  run: 7,
  tools: 8,
  cli: 9,
};

/** Scripts and the CLI entry sit on top and may import anything but DuckDB. */
const EXEMPT_FROM_DUCKDB_RULE: Record<string, string> = {
  'scripts/bench-store.ts': 'benchmarks DuckDB appenders against prepared statements, i.e. the store itself',
};

function isTestFile(path: string): boolean {
  return /\.test\.ts$/.test(path) || /\.fixture\.ts$/.test(path) || /(^|\/)testing\//.test(path);
}

function layerOf(path: string): string | undefined {
  if (path.startsWith('baselines/')) return 'baselines';
  const m = /^src\/([^/]+)\//.exec(path);
  if (m) return m[1];
  if (path.startsWith('src/')) return 'cli';
  return undefined;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

export function importsOf(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

/** Violations of the rules above, one line each (`file → import: rule`). `files` maps repo-relative paths to source. */
export function findViolations(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, source] of files) {
    if (isTestFile(file)) continue;
    const from = layerOf(file);
    for (const spec of importsOf(source)) {
      const bad = (rule: string) => out.push(`${file} → ${spec}: ${rule}`);
      if (spec.startsWith('@duckdb/')) {
        if (!file.startsWith('src/store/') && file !== 'src/index/embedding-cache-duckdb.ts' && !EXEMPT_FROM_DUCKDB_RULE[file]) bad('only src/store and the embedding cache touch DuckDB');
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = normalize(join(dirname(file), spec));
      const to = layerOf(target);
      if (from === 'core' && to !== 'core') bad('src/core imports nothing else in the repository');
      if (to === 'baselines' && from !== 'baselines' && file !== 'src/run/method-registry.ts') bad('only the method registry imports baselines/');
      if (['baselines', 'strategies', 'routing', 'classify'].includes(from ?? '') && (to === 'data' || to === 'eval')) {
        bad('methods, strategies and classifiers never import where gold lives (src/data, src/eval)');
      }
      if (from && to && from in LAYERS && to in LAYERS && LAYERS[to]! > LAYERS[from]!) bad(`layer ${from} imports the higher layer ${to}`);
    }
  }
  return out;
}

function sources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (name === 'node_modules' || name.startsWith('.')) continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|js)$/.test(name)) files.set(relative(ROOT, full), readFileSync(full, 'utf8'));
    }
  };
  for (const d of SCAN) walk(join(ROOT, d));
  return files;
}

describe('architecture', () => {
  it('the repository follows the import rules', () => {
    const files = sources();
    expect(files.size).toBeGreaterThan(100);
    expect(findViolations(files)).toEqual([]);
  });

  it('the checker catches each kind of violation', () => {
    const cases = new Map([
      ['src/core/x.ts', "import { a } from '../data/index.ts';"],
      ['src/eval/y.ts', "import type { B } from '../../baselines/bm25/bm25-method.ts';"],
      ['src/report/z.ts', "import { DuckDBInstance } from '@duckdb/node-api';"],
      ['src/strategies/w.ts', "import { loadDataset } from '../data/index.ts';"],
      ['src/classify/v.ts', "const m = await import('../eval/qa/verdict.ts');"],
      ['src/store/u.ts', "export { r } from '../report/index.ts';"],
      ['src/run/ok.ts', "import { methods } from './method-registry.ts';\nimport { s } from '../store/index.ts';"],
      ['src/index/ok.test.ts', "import { x } from '../run/runner.ts';"],
    ]);
    const v = findViolations(cases);
    expect(v.some((l) => l.startsWith('src/core/x.ts') && /core imports nothing/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/eval/y.ts') && /only the method registry/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/report/z.ts') && /DuckDB/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/strategies/w.ts') && /gold lives/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/classify/v.ts') && /gold lives/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/store/u.ts') && /higher layer report/.test(l))).toBe(true);
    expect(v.filter((l) => l.startsWith('src/run/ok.ts') || l.startsWith('src/index/ok.test.ts'))).toEqual([]);
  });
});
