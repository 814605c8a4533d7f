// Test runner config: tests live beside the code. Two tiers (test/tiers.ts, CONTRIBUTING.md): project `fast` — no full
// dataset, browser or notebook (`npm run test:fast`) — and project `full`, the rest; `npm test` runs both. Tests read
// the real datasets through the CLI's own search path (ADAPTMR_DATA_DIR when set, else ./datasets).
import { defineConfig } from 'vitest/config';
import { delimiter, resolve } from 'node:path';
import { DEFAULT_DATA_DIRS } from './src/data/source.ts';
import { TierScanner, testFiles } from './test/tiers.ts';

const ROOT = import.meta.dirname;
const FOLDERS = ['src', 'baselines', 'benchmarks', 'scripts', 'test', 'examples'];
const INCLUDE = FOLDERS.map((f) => `${f}/**/*.test.ts`);
const FULL = [...new TierScanner(ROOT).fullTier(testFiles(ROOT, FOLDERS)).keys()];
const NO_DATA = resolve(ROOT, 'test/fast-tier-has-no-datasets--read-them-through-test-data-path.ts');
// The CLI's default (./datasets), then the folder beside the checkout that CI mounts (.ci/run exports the same), so a
// clean clone with the data beside it tests as CI does without setting ADAPTMR_DATA_DIR.
const CI_DATA = '../shared/datasets';
const DATA_DIR =
  process.env.ADAPTMR_DATA_DIR ||
  [...DEFAULT_DATA_DIRS.split(delimiter), CI_DATA].map((d) => resolve(ROOT, d)).join(delimiter);

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The benchmarks' datasets and readers, installed as the CLI installs them (src/run/benchmark-registry.ts).
    setupFiles: ['test/setup-benchmarks.ts'],
    // .ci/run asks for a JSON report too, to print the plain `N passed, N failed` line CI reads.
    reporters: process.env.VITEST_JSON_REPORT ? ['default', 'json'] : ['default'],
    ...(process.env.VITEST_JSON_REPORT ? { outputFile: { json: process.env.VITEST_JSON_REPORT } } : {}),
    env: { ADAPTMR_DATA_DIR: DATA_DIR },
    projects: [
      // The fast tier sees no data directory, so a test that reads a real dataset without test/data-path.ts fails
      // there (naming this path) instead of silently needing the data. Its files share a worker's module cache
      // (isolate: false): importing DuckDB, zod and the CLI once per worker rather than per file takes the tier from
      // ~105 s to ~65 s on 2 cores; the tier passes with its files in any order (checked with --sequence.shuffle.files).
      {
        extends: true,
        test: {
          name: 'fast',
          isolate: false,
          include: INCLUDE,
          exclude: ['**/node_modules/**', ...FULL],
          env: { ADAPTMR_DATA_DIR: NO_DATA },
        },
      },
      { extends: true, test: { name: 'full', include: FULL.length > 0 ? FULL : ['no-full-tier-files'] } },
    ],
  },
});
