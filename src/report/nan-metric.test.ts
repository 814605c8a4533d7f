// A NaN metric in a results file (a damaged file, a bug upstream) is reported per cell and the report goes on:
// `report --summary` and the full text report print every other cell and name the invalid one, instead of stopping
// with "impossible mean NaN".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperiment } from '../run/config/load-config.ts';
import { runExperiment } from '../run/runner.ts';
import { tinyLongMemEval } from '../run/testing/tiny-longmemeval.ts';
import { openResultStore } from '../store/index.ts';
import { runReport } from './report.ts';
import { runSummary } from './summary.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-nan-metric-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a NaN metric', () => {
  it('is an invalid cell; the summary and the report go on', async () => {
    const out = join(dir, 'nan.duckdb');
    const exp = parseExperiment(
      `name: nan\ndatasets: [${tinyLongMemEval(dir, 3)}]\nmethods: [{ id: bm25, method: bm25, k: 2 }, { id: bm25-b, method: bm25, k: 1 }]\n`,
      'nan.yaml',
    );
    await runExperiment(exp, { out, progress: false, log: () => {} });
    const store = await openResultStore(out);
    await store.query(`UPDATE scores SET value = 'NaN'::DOUBLE WHERE method = 'bm25'`);
    await store.close();
    const report = await runReport(out, { outDir: dir });
    expect(report.text).toMatch(/bm25 +│? *invalid \(NaN\)/);
    expect(report.text).toMatch(/cell\(s\) invalid .*tiny \/ bm25 \/ all: NaN/);
    expect(report.text).toMatch(/bm25-b .*\d+\.\d% /);
    await expect(runSummary(out)).resolves.toContain('adaptmr report');
  });
});
