/**
 * `tsx scripts/sample-results.ts <out.duckdb>`: writes the small sample results file (src/report/testing) that CI
 * renders into the HTML report and the notebooks; offline (loopback LLM stand-in), a few seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSampleResults } from '../src/report/testing/sample-results.ts';

const out = process.argv[2];
if (!out) {
  console.error('usage: tsx scripts/sample-results.ts <out.duckdb>');
  process.exit(2);
}
const cache = mkdtempSync(join(tmpdir(), 'adaptmr-sample-'));
try {
  await makeSampleResults(out, cache);
  console.log(`sample results: ${out}`);
} finally {
  rmSync(cache, { recursive: true, force: true });
}
