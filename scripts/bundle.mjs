// Bundles the compiled CLI (dist/src, tsc's output) into dist/bundle/: one `cli.js` and one `worker.js` entry with
// shared chunks beside them. Node's ESM loader costs ~0.3 ms per module, and `adaptmr run` loaded ~330 of them
// (our ~200, zod's 95, yargs, yaml…) before it could start: ~0.35 s of every run. One bundle loads in a fraction
// of that, and each compute worker boots sooner too. Packages with native code, large data or that load only for
// some commands stay outside the bundle and load from node_modules as before.
//
//   node scripts/bundle.mjs [from-dir] [out-dir]     (defaults: dist/src → dist/bundle; `npm run build` runs it)
//
// The worker entry and every chunk are written to one folder, so `new URL('./worker.js', import.meta.url)` in
// src/run/parallel/pool.ts finds the worker from whichever chunk holds the pool.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');

/**
 * Pure-JavaScript packages every run loads; everything else in `dependencies` stays external. DuckDB's JavaScript
 * API is ~180 CommonJS files that Node's ESM loader would scan one by one for their exports (~0.1 s); its native
 * bindings stay external.
 */
export const BUNDLED_PACKAGES = [
  'zod',
  'yaml',
  'yargs',
  'safe-stable-stringify',
  'p-limit',
  'pure-rand',
  '@duckdb/node-api',
];
/** Packages reached only through bundled ones that must stay external (native code). */
const NATIVE = ['@duckdb/node-bindings'];

/** Builds the bundle from `from` (dist/src, or src: esbuild reads the TypeScript sources as well) into `out`. */
export async function bundle(from = join(root, 'dist', 'src'), out = join(root, 'dist', 'bundle')) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const external = [...Object.keys(pkg.dependencies).filter((name) => !BUNDLED_PACKAGES.includes(name)), ...NATIVE];
  const ext = existsTs(from) ? 'ts' : 'js';
  rmSync(out, { recursive: true, force: true });
  const browserScript = await browserScriptPlugin(from, ext);
  await build({
    absWorkingDir: root,
    entryPoints: { cli: join(from, `cli.${ext}`), worker: join(from, 'run', 'parallel', `worker.${ext}`) },
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: external.flatMap((name) => [name, `${name}/*`]),
    chunkNames: '[name]-[hash]',
    // Bundled CommonJS code (yargs' helpers) may call require(); ESM has none, so give each file one.
    banner: {
      js: "import { createRequire as __adaptmrRequire } from 'node:module'; const require = __adaptmrRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [browserScript],
  });
  refuseDefaultOnlyChunks(out);
}

/**
 * The report page's browser script (src/report/html/browser/, TypeScript for the browser) is bundled here, once,
 * and the CLI bundle gets a browser-script module that returns that text — the installed command needs no esbuild
 * at report time. From the sources, src/report/html/browser-script.ts bundles it on first use with the same code.
 */
async function browserScriptPlugin(from, ext) {
  const mod = await import(pathToFileURL(join(from, 'report', 'html', `browser-script.${ext}`)).href);
  const text = mod.bundleBrowserScript();
  return {
    name: 'adaptmr-browser-script',
    setup(b) {
      b.onLoad({ filter: /[\\/]report[\\/]html[\\/]browser-script\.(js|ts)$/ }, () => ({
        contents: `export function browserScript() { return ${JSON.stringify(text)}; }`,
        loader: 'js',
      }));
    },
  };
}

/**
 * A bundled CommonJS package reached by a dynamic `import()` becomes a chunk that is only `export default
 * require_x()`: its named exports are gone, so `const { Name } = await import('pkg')` gets undefined in the bundle
 * while it works from the sources (Node gives CommonJS modules named exports). Fails the build instead; the fix is to
 * import the package statically from a module of ours and import that module dynamically.
 */
export function refuseDefaultOnlyChunks(out) {
  for (const name of readdirSync(out)) {
    if (!name.endsWith('.js')) continue;
    const text = readFileSync(join(out, name), 'utf8');
    if (/^export default require_\w+\(\);?\s*$/m.test(text) && !/^export (?!default)/m.test(text)) {
      throw new Error(
        `bundle: ${name} re-exports a bundled CommonJS package as its default export only — a dynamic import() of that package ` +
          'loses its named exports in the bundle; import it statically from a module of ours and import that module dynamically',
      );
    }
  }
}

function existsTs(dir) {
  try {
    readFileSync(join(dir, 'cli.ts'));
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  try {
    await bundle(process.argv[2], process.argv[3]);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
