/**
 * The bundle the published `bin` runs (scripts/bundle.mjs): built here from the sources into a folder inside the
 * package (so its external packages resolve from node_modules as in dist/bundle), it answers `--help`, and an
 * `adaptmr run` through it with a compute worker (the worker entry found beside the chunks) stores exactly the rows
 * the in-process run stores, and `adaptmr explain` through it opens the embedding cache (DuckDB imported on demand:
 * a path the sources, run through tsx, cannot show broken). The build refuses a chunk that would hand a dynamic
 * import of a bundled CommonJS package its default export only, and `--version` reads the package version wherever
 * the command runs. The report page's browser script is in the bundle as text, bundled at build time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/core/package-root.ts';
import { parseExperiment } from '../src/run/config/load-config.ts';
import { runExperiment } from '../src/run/runner.ts';
import { queryFile } from '../src/store/testing/query-file.ts';
// @ts-expect-error: a plain .mjs build script without type declarations
import { bundle, refuseDefaultOnlyChunks } from './bundle.mjs';
import { useTestData } from '../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

mkdirSync(join(PACKAGE_ROOT, '.cache'), { recursive: true });
const dir = mkdtempSync(join(PACKAGE_ROOT, '.cache', 'bundle-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXPERIMENT = `
name: bundled
seed: 5
datasets:
  - name: longmemeval-s
    sample: { perType: 2 }
methods:
  - id: bm25-session
    method: bm25
    index: { granularity: session, roles: [user], keepEmpty: true }
    k: 50
    options: { tokenizer: whitespace, tieBreak: reverse }
`;
const ROWS = 'select question_id, method, unit_ids, scores from retrievals order by all';

describe('the bundled CLI', () => {
  it('runs a config with a compute worker and stores the rows the in-process run stores', async () => {
    const out = join(dir, 'bundle');
    await bundle(join(PACKAGE_ROOT, 'src'), out);
    expect(existsSync(join(out, 'cli.js')) && existsSync(join(out, 'worker.js'))).toBe(true);
    // The report page's browser script is bundled in at build time (src/report/html/browser-script.ts replaced by
    // its text): the installed command needs no esbuild at report time.
    const chunks = readdirSync(out).filter((f) => f.endsWith('.js'));
    const texts = chunks.map((f) => readFileSync(join(out, f), 'utf8'));
    expect(texts.some((t) => t.includes('function browserScript()') && t.includes('adaptmrReport'))).toBe(true);
    expect(texts.some((t) => /from ["']esbuild["']|import\(["']esbuild["']\)/.test(t))).toBe(false);
    const help = spawnSync(process.execPath, [join(out, 'cli.js'), '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/adaptmr <command>/);

    const yaml = join(dir, 'bundled.yaml');
    writeFileSync(yaml, EXPERIMENT);
    const viaBundle = join(dir, 'bundle.duckdb');
    const r = spawnSync(
      process.execPath,
      [join(out, 'cli.js'), 'run', yaml, '--out', viaBundle, '--no-progress', '--workers', '1'],
      {
        encoding: 'utf8',
        env: process.env,
      },
    );
    expect(r.stderr).not.toMatch(/Error|error:/);
    expect(r.status).toBe(0);
    const inProcess = join(dir, 'in-process.duckdb');
    await runExperiment(parseExperiment(EXPERIMENT, yaml), {
      out: inProcess,
      workers: 0,
      progress: false,
      log: () => {},
    });
    const rows = await queryFile(inProcess, ROWS);
    expect(rows.length).toBeGreaterThan(5);
    expect(await queryFile(viaBundle, ROWS)).toEqual(rows);
  });

  it('explains a question through the bundle, opening the embedding cache', () => {
    const out = join(dir, 'bundle');
    if (!existsSync(join(out, 'cli.js'))) return expect.fail('the bundle of the first test is missing');
    const yaml = join(dir, 'explain.yaml');
    writeFileSync(yaml, EXPERIMENT);
    const r = spawnSync(
      process.execPath,
      [join(out, 'cli.js'), 'explain', '--experiment', yaml, '--question', 'gpt4_2655b836', '--json'],
      {
        encoding: 'utf8',
        env: { ...process.env, ADAPTMR_CACHE_DIR: join(dir, 'cache') },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout) as { methods: { method: string; units: unknown[] }[] };
    expect(result.methods.map((m) => m.method)).toEqual(['bm25-session']);
    expect(result.methods[0]!.units.length).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'cache', 'embeddings.duckdb'))).toBe(true);
  });

  it('prints the package version from any working folder', () => {
    const out = join(dir, 'bundle');
    if (!existsSync(join(out, 'cli.js'))) return expect.fail('the bundle of the first test is missing');
    const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = spawnSync(process.execPath, [join(out, 'cli.js'), '--version'], { encoding: 'utf8', cwd: tmpdir() });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });

  it('refuses a chunk that re-exports a bundled CommonJS package as a default export only', () => {
    const chunks = join(dir, 'chunks');
    mkdirSync(chunks, { recursive: true });
    writeFileSync(
      join(chunks, 'lib-X.js'),
      'import { require_lib } from "./chunk-Y.js";\nexport default require_lib();\n',
    );
    expect(() => refuseDefaultOnlyChunks(chunks)).toThrow(/lib-X\.js re-exports a bundled CommonJS package/);
    writeFileSync(join(chunks, 'lib-X.js'), 'var x = 1;\nexport { x };\nexport default x;\n');
    expect(() => refuseDefaultOnlyChunks(chunks)).not.toThrow();
  });
});
