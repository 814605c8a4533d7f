/**
 * The report page's browser script, as the page inlines it: the TypeScript module in ./browser/ (entry main.ts),
 * bundled for the browser by esbuild into one ES2017 script. `npm run build` bundles it once: scripts/bundle.mjs
 * puts the bundled text into the CLI bundle in place of this module, so the installed command needs no esbuild.
 * Run from the sources (tsx, the tests), it is bundled here on first use — so the page always carries the
 * script of the sources it runs from.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

/**
 * The browser module's entry, always the TypeScript source in the checkout (the browser folder has its own
 * tsconfig.json and is not compiled by tsc), whether this file runs from src/ or as tsc's copy in dist/src/.
 */
const ENTRY = join(PACKAGE_ROOT, 'src', 'report', 'html', 'browser', 'main.ts');

/** Bundles the browser module into one script (an IIFE: it declares no globals of its own). */
export function bundleBrowserScript(): string {
  if (!existsSync(ENTRY))
    throw new Error(`report page: the browser script's source ${ENTRY} is missing; reinstall or rebuild`);
  const out = buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2017',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const file = out.outputFiles[0];
  if (!file)
    throw new Error('report page: bundling the browser script (src/report/html/browser/main.ts) gave no output');
  return file.text;
}

let cached: string | undefined;
/** The page's script, bundled once per process. */
export function browserScript(): string {
  cached ??= bundleBrowserScript();
  return cached;
}
