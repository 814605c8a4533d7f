// `adaptmr compare` and the report's comparison cells on a real results file: the on-demand comparison equals the
// stored one, rows name their dataset when there are several, unknown methods fail with one clear line, and the
// report prints `+d [lo, hi] p_holm p` cells.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResultStore } from '../../store/index.ts';
import { writeStatsFixture } from '../../store/testing/stats-fixture.ts';
import { runReport } from '../../report/report.ts';
import { formatComparison } from '../../report/comparison-cells.ts';
import { compareMethods } from './compare.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-compare-'));
const file = join(dir, 'r.duckdb');
beforeAll(async () => {
  const store = await openResultStore(file);
  await writeStatsFixture(store, { resamples: 400 });
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('adaptmr compare', () => {
  it('agrees with the comparisons table the report computes, and prints report cells', async () => {
    const report = await runReport(file, { outDir: dir, ks: [5] });
    const store = await openResultStore(file, { readOnly: true });
    const stored = await store.query<{
      adapt_type: string;
      mean_diff: number;
      ci_low: number;
      ci_high: number;
      p_value: number;
    }>(
      `SELECT adapt_type, mean_diff, ci_low, ci_high, p_value FROM comparisons WHERE dataset = 'plain' AND metric = 'recall_any' ORDER BY adapt_type`,
    );
    await store.close();
    const out = await compareMethods(file, {
      a: 'better',
      b: 'base',
      metric: 'recall_any',
      level: 'session',
      k: 5,
      run: undefined,
    });
    const plain = out.rows.filter((r) => r.dataset === 'plain').sort((x, y) => (x.adaptType < y.adaptType ? -1 : 1));
    expect(plain.map((r) => [r.adaptType, r.meanDiff, r.ciLow, r.ciHigh, r.pValue])).toEqual(
      stored.map((r) => [r.adapt_type, r.mean_diff, r.ci_low, r.ci_high, r.p_value]),
    );
    expect(out.text).toMatch(/better \(exp-0+\) − base/);
    expect(out.text).toMatch(/1 unpaired questions left out/);
    // the report's comparison table holds the same cell
    const all = plain.find((r) => r.adaptType === 'all')!;
    expect(report.text).toContain(formatComparison(all));
    expect(report.text).toMatch(/recall_any@5 \(session level\) {2}— cells: mean \[95% bootstrap CI\] \(n questions\)/);
  });

  it("names each row's dataset when the file has several, and --dataset keeps one", async () => {
    const both = await compareMethods(file, { a: 'better', b: 'base', metric: 'recall_any', level: 'session', k: 5 });
    expect(new Set(both.rows.map((r) => r.dataset))).toEqual(new Set(['plain', 'convs']));
    expect(both.text).toMatch(/\n {2}convs +all +n=\d+ .*conversation bootstrap/);
    expect(both.text).toMatch(/\n {2}plain +all +n=\d+ .*question bootstrap/);
    const one = await compareMethods(file, {
      a: 'better',
      b: 'base',
      metric: 'recall_any',
      level: 'session',
      k: 5,
      dataset: 'convs',
    });
    expect(new Set(one.rows.map((r) => r.dataset))).toEqual(new Set(['convs']));
    expect(one.text).toMatch(/\n {2}all +n=\d+ .*conversation bootstrap/);
    await expect(
      compareMethods(file, { a: 'better', b: 'base', metric: 'recall_any', level: 'session', k: 5, dataset: 'nope' }),
    ).rejects.toThrow(/method "better"/);
  });

  it('formats cells with sign, CI and the Holm marker', () => {
    expect(formatComparison({ meanDiff: 0.0523, ciLow: 0.0211, ciHigh: 0.0834, pHolm: 0.004 })).toBe(
      '+0.052 [0.021, 0.083] p_holm 0.004 *',
    );
    expect(formatComparison({ meanDiff: -0.01, ciLow: -0.05, ciHigh: 0.03, pHolm: 0.6 })).toBe(
      '-0.010 [-0.050, 0.030] p_holm 0.600',
    );
  });

  it('a method that is not in the file fails with one line naming it', async () => {
    await expect(
      compareMethods(file, { a: 'nope', b: 'base', metric: 'recall_any', level: 'session', k: 5 }),
    ).rejects.toThrow(/method "nope"/);
  });
});
