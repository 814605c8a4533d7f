// Test runner config: tests live beside the code; they read real data from ADAPTMR_DATA_DIR (default ../shared/datasets).
import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'baselines/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // .ci/run asks for a JSON report too, to print the plain `N passed, N failed` line CI reads.
    reporters: process.env.VITEST_JSON_REPORT ? ['default', 'json'] : ['default'],
    ...(process.env.VITEST_JSON_REPORT ? { outputFile: { json: process.env.VITEST_JSON_REPORT } } : {}),
    env: {
      ADAPTMR_DATA_DIR: process.env.ADAPTMR_DATA_DIR ?? resolve(import.meta.dirname, '../shared/datasets'),
    },
  },
});
