/**
 * The import rules of docs/architecture.md, checked on every source file (static and dynamic imports, type-only
 * included). Tests, test fixtures (`testing/`, `*.fixture.ts`) may reach across layers to build their cases; rules
 * 1–5 apply to everything that ships.
 *   1. src/core imports nothing else in the repository.
 *   2. Only the method registry (src/run/methods/method-registry.ts) imports baselines/ from outside baselines/, and only the
 *      benchmark registry (src/run/benchmark-registry.ts) imports benchmarks/ from outside benchmarks/; outside
 *      src/plan-experiments/, only its registry (src/plan-experiments/registry.ts) is imported.
 *   3. Only src/store and the embedding cache (src/index/embedding-cache-duckdb.ts) import DuckDB.
 *   4. Methods, strategies, routing and classifiers never import where gold lives: src/data, src/eval, benchmarks/.
 *   5. Layers point down: components (data, index, llm, classify, strategies, routing, baselines) never import eval,
 *      store, report, run or tools; eval never imports store and above; store never report and above; report (and
 *      the plan experiments beside it) never run or tools; run never tools.
 *   6. No import cycle, type-only and dynamic imports included, tests and fixtures included: each module can be read
 *      (and loaded) after the modules it imports.
 *   7. Text cites only what a clone contains (test/citations.ts): no build-workspace design file, source documents,
 *      tracker issue numbers or machine paths, and every cited section of docs/plan.md, design.md, datasets.md exists.
 *   8. Outside benchmarks/, the benchmark registry and tests, no shipped file names the benchmarks of
 *      `BENCHMARK_ONLY_NAMES`: it reaches them through the Benchmark contract.
 * The import graph comes from the TypeScript compiler's own import scanner (`ts.preProcessFile`: static, type-only,
 * re-exports, dynamic `import()`, `require`; never text inside a string or comment). Cycles are its strongly
 * connected components (Tarjan), each reported as one cycle path.
 */
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { citationFindings, repositoryCitationFindings, sectionsOf } from '../test/citations.ts';
import { isTestFile, sourcesUnder } from '../test/source-files.ts';

const ROOT = join(import.meta.dirname, '..');
const SCAN = ['src', 'baselines', 'benchmarks', 'scripts', 'bin'];

/** Layers from the bottom; a file may import its own layer or lower ones. */
const LAYERS: Record<string, number> = {
  core: 0,
  data: 1,
  index: 1,
  llm: 1,
  classify: 2,
  strategies: 2,
  routing: 3,
  baselines: 3,
  eval: 4,
  benchmarks: 4.5,
  store: 5,
  report: 6,
  'plan-experiments': 6,
  run: 7,
  tools: 8,
  cli: 9,
};

/** Scripts and the CLI entry sit on top and may import anything but DuckDB. */
const EXEMPT_FROM_DUCKDB_RULE: Record<string, string> = {
  'scripts/bench-store.ts': 'benchmarks DuckDB appenders against prepared statements, i.e. the store itself',
};

function layerOf(path: string): string | undefined {
  if (path.startsWith('baselines/')) return 'baselines';
  if (path.startsWith('benchmarks/')) return 'benchmarks';
  const m = /^src\/([^/]+)\//.exec(path);
  if (m) return m[1];
  if (path.startsWith('src/')) return 'cli';
  return undefined;
}

export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
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
        if (
          !file.startsWith('src/store/') &&
          file !== 'src/index/embedding-cache-duckdb.ts' &&
          !EXEMPT_FROM_DUCKDB_RULE[file]
        )
          bad('only src/store and the embedding cache touch DuckDB');
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = normalize(join(dirname(file), spec));
      const to = layerOf(target);
      if (from === 'core' && to !== 'core') bad('src/core imports nothing else in the repository');
      if (to === 'baselines' && from !== 'baselines' && file !== 'src/run/methods/method-registry.ts')
        bad('only the method registry imports baselines/');
      if (to === 'benchmarks' && from !== 'benchmarks' && file !== 'src/run/benchmark-registry.ts')
        bad('only the benchmark registry imports benchmarks/');
      if (to === 'plan-experiments' && from !== 'plan-experiments' && target !== 'src/plan-experiments/registry.ts')
        bad('outside src/plan-experiments/, only its registry is imported');
      const gold = to === 'data' || to === 'eval' || to === 'benchmarks';
      if (['baselines', 'strategies', 'routing', 'classify'].includes(from ?? '') && gold) {
        bad('methods, strategies and classifiers never import where gold lives (src/data, src/eval, benchmarks/)');
      }
      if (from && to && from in LAYERS && to in LAYERS && LAYERS[to]! > LAYERS[from]!)
        bad(`layer ${from} imports the higher layer ${to}`);
    }
  }
  return out;
}

/** The repository files each file imports (relative specifiers that name a file in `files`). */
function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, source] of files) {
    const targets = importsOf(source)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => normalize(join(dirname(file), spec)));
    graph.set(file, [...new Set(targets.filter((t) => files.has(t)))]);
  }
  return graph;
}

/** Import cycles, one line each (`a.ts → b.ts → a.ts`): one per strongly connected component of the import graph. */
export function findCycles(files: ReadonlyMap<string, string>): string[] {
  const graph = importGraph(files);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) visit(w);
      if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, low.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = new Set<string>();
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.add(w);
      if (w === v) break;
    }
    if (component.size > 1 || graph.get(v)!.includes(v)) out.push(cyclePath(graph, component).join(' → '));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** A cycle through a component's first file (by name), by the shortest path back to it. */
function cyclePath(graph: ReadonlyMap<string, string[]>, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const parent = new Map<string, string>();
  const queue = [start];
  for (const v of queue) {
    for (const w of graph.get(v)!) {
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(parent.get(path[0]!)!);
        return [...path, start];
      }
      if (component.has(w) && !parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/**
 * Benchmark names only benchmarks/ may spell: outside it (and the benchmark registry, and tests), shipped code reaches
 * a benchmark through the Benchmark contract (src/core/benchmark.ts), never by its name. Case-insensitive, inside
 * identifiers and comments too. Names shared with English words stay out of this list ("beam" has no other use in
 * this code: a hit is a benchmark).
 */
const BENCHMARK_ONLY_NAMES = /memdaily|beam/i;

/** Shipped files outside benchmarks/ that name a benchmark of BENCHMARK_ONLY_NAMES, one line each (`file:line text`). */
export function benchmarkNameFindings(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, source] of files) {
    if (isTestFile(file) || file.startsWith('benchmarks/') || file === 'src/run/benchmark-registry.ts') continue;
    source.split('\n').forEach((line, i) => {
      if (BENCHMARK_ONLY_NAMES.test(line)) out.push(`${file}:${i + 1} ${line.trim().slice(0, 100)}`);
    });
  }
  return out;
}

function sources(): Map<string, string> {
  return sourcesUnder(ROOT, SCAN, /\.(ts|js)$/);
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
      ['src/run/question.ts', "import { locomoQa } from '../../benchmarks/locomo/qa.ts';"],
      ['baselines/bm25/x.ts', "import type { B } from '../../benchmarks/beam/index.ts';"],
      ['src/run/benchmark-registry.ts', "const b = await import('../../benchmarks/beam/index.ts');"],
      ['benchmarks/beam/index.ts', "import { eventOrderingScore } from './kendall.ts';"],
    ]);
    const v = findViolations(cases);
    expect(v.some((l) => l.startsWith('src/core/x.ts') && /core imports nothing/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/eval/y.ts') && /only the method registry/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/report/z.ts') && /DuckDB/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/strategies/w.ts') && /gold lives/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/classify/v.ts') && /gold lives/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/store/u.ts') && /higher layer report/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('src/run/question.ts') && /only the benchmark registry/.test(l))).toBe(true);
    expect(v.some((l) => l.startsWith('baselines/bm25/x.ts') && /gold lives/.test(l))).toBe(true);
    const fine = ['src/run/ok.ts', 'src/index/ok.test.ts', 'src/run/benchmark-registry.ts', 'benchmarks/beam/index.ts'];
    expect(v.filter((l) => fine.some((f) => l.startsWith(f)))).toEqual([]);
  });

  it('no shipped file outside benchmarks/ and the benchmark registry names a benchmark only benchmarks/ may name', () => {
    const shipped = sourcesUnder(ROOT, [...SCAN, 'src/classify/data'], /\.(ts|js|mjs|jsonl)$/);
    expect(benchmarkNameFindings(shipped)).toEqual([]);
  });

  it('the benchmark-name check catches a name in code, a comment or an identifier, and passes benchmarks/ and tests', () => {
    const planted = new Map([
      ['src/data/x.ts', "if (src.format === 'beam') return;"],
      ['src/eval/y.ts', '// MemDaily letters are scored exactly'],
      ['scripts/z.ts', 'const BEAM_TIERS = 2;'],
      ['benchmarks/beam/load.ts', "export const BEAM_CHAT_FILE = 'chat.json';"],
      ['src/run/benchmark-registry.ts', "beam: async () => (await import('../../benchmarks/beam/index.ts')).beam,"],
      ['src/data/x.test.ts', "resolveDataset({ name: 'memdaily' }, dir);"],
      ['src/core/w.ts', '// a beaming, dailymem-free comment'],
    ]);
    expect(benchmarkNameFindings(planted).map((l) => l.split(' ')[0])).toEqual([
      'src/data/x.ts:1',
      'src/eval/y.ts:1',
      'scripts/z.ts:1',
      'src/core/w.ts:1',
    ]);
  });

  it('the repository has no import cycle', () => {
    expect(findCycles(sources())).toEqual([]);
  });

  it('the cycle check catches a cycle through type-only, dynamic and re-export imports, and passes a graph without one', () => {
    const planted = new Map([
      // The cycle the embedding cache had: a dynamic import one way, a type-only import back.
      [
        'src/index/cache.ts',
        "export async function open() { const { Db } = await import('./cache-db.ts'); return Db.open(); }",
      ],
      ['src/index/cache-db.ts', "import type { Cache } from './cache.ts';\nexport class Db {}"],
      // Three files, one edge a re-export; a file importing into the cycle is not part of it.
      ['src/data/a.ts', "export { b } from './b.ts';"],
      ['src/data/b.ts', "import {\n  c,\n} from './c.ts';"],
      ['src/data/c.ts', "import type { A } from './a.ts';"],
      ['src/data/d.ts', "import { a } from './a.ts';"],
      ['src/core/self.ts', "import type { Me } from './self.ts';"],
    ]);
    expect(findCycles(planted)).toEqual([
      'src/core/self.ts → src/core/self.ts',
      'src/data/a.ts → src/data/b.ts → src/data/c.ts → src/data/a.ts',
      'src/index/cache-db.ts → src/index/cache.ts → src/index/cache-db.ts',
    ]);
    const acyclic = new Map([
      [
        'src/data/a.ts',
        "import { b } from './b.ts';\n// import { a } from './a.ts';\nconst s = \"import { a } from './a.ts'\";",
      ],
      ['src/data/b.ts', "import { c } from '../core/c.ts';"],
      ['src/core/c.ts', 'export const c = 1;'],
    ]);
    expect(findCycles(acyclic)).toEqual([]);
  });

  it('no text cites what a clone does not contain, and every cited section exists', () => {
    const findings = repositoryCitationFindings(ROOT, new Set(['test/citations.ts', 'src/architecture.test.ts']));
    expect(findings.map((f) => `${f.file}:${f.line} ${f.why}: ${f.text}`)).toEqual([]);
  });

  it('the citation check catches a planted DESIGN.md, seeds/, issue, machine path, workspace provenance and missing section, and passes clean text', () => {
    const sections = new Map([
      [
        'docs/plan.md',
        sectionsOf(
          '# Plan\n## §2 Method\n### §2.3 The five strategies\n## §4 Timeline, §5 outline\ntext §5.5 case studies',
        ),
      ],
      ['docs/design.md', sectionsOf('## §3 Data flow\n')],
      ['docs/datasets.md', sectionsOf('## 1. LoCoMo\n### 4.1 BEAM (`beam-100k`)\n')],
    ]);
    const planted = [
      '/** The interfaces (DESIGN.md §5). */',
      '// verbatim from seeds/002 ("核心Prompt模板")',
      ' * Durable accounting of paid calls (issue 16): the runner…',
      '# data in /work/shared/datasets',
      ' * One strategy (plan §2.7).',
      ' * gold never reaches a method (design.md §9)',
      '{"_provenance": "Written by the AdaptMR Bench helper session classifier (an LLM coding agent)"}',
    ].join('\n');
    const found = citationFindings('src/x.ts', planted, sections);
    expect(found.map((f) => [f.line, f.why.split(/[ ,(]/).slice(0, 2).join(' ')])).toEqual([
      [1, 'names DESIGN.md'],
      [2, 'names the'],
      [3, 'names an'],
      [4, 'names a'],
      [5, 'cites docs/plan.md'],
      [6, 'cites docs/design.md'],
      [7, 'says how'],
    ]);
    const clean = [
      '/** The interfaces (docs/design.md §3; plan §2.3, plan §5.5, datasets.md §4.1, datasets.md §1). */',
      '// mem0ai/mem0#2345 and getzep/graphiti/issues/12 are upstream, fine',
      "const dirs = ['./datasets', '../shared/datasets'];",
    ].join('\n');
    expect(citationFindings('src/y.ts', clean, sections)).toEqual([]);
  });
});
