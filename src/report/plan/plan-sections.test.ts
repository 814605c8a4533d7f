/**
 * The plan-experiment sections end to end on real data (ADAPTMR_DATA_DIR): small runs of experiments 1, 2, 3, 4 (a
 * sweep) and 5 into one results file through the real runner, each on two datasets the way the committed files run
 * them — LongMemEval (oracle here: small haystacks) as sessions and LoCoMo as turns through the dataset entry's
 * `index` — with the headline level per dataset; then `adaptmr report`: every section is printed per dataset with
 * its CIs and stored verdicts, the LoCoMo statistics use the conversation bootstrap (LongMemEval's the question one), and
 * every chart is rendered as SVG and PNG with whisker marks.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadedFromValue } from '../../run/config/load-config.ts';
import { runExperiment } from '../../run/runner.ts';
import { expandSweep } from '../../run/sweep/sweep-file.ts';
import { openResultStore, readVerdicts } from '../../store/index.ts';
import { runReport, type ReportOutput } from '../report.ts';
import { planSections } from './index.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-plan-'));
const file = join(dir, 'plan.duckdb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const common = {
  seed: 3,
  datasets: [
    { name: 'longmemeval-oracle', sample: { perType: 3 } },
    { name: 'locomo', sample: { perType: 3 }, index: { granularity: 'turn' } },
  ],
  metrics: { ks: [5, 10] },
  stats: { resamples: 300 },
};
const level = { 'longmemeval-oracle': 'session', locomo: 'turn' };
const idx = { granularity: 'session' };
const unified = { id: 'unified-embedding', method: 'unified-embedding', index: idx, k: 10 };
const adaptmr = {
  id: 'adaptmr',
  method: 'adaptmr',
  index: idx,
  k: 10,
  options: { classifier: { name: 'rules' }, router: { kind: 'single' } },
};
const strategy = (name: string) => ({
  id: `strategy-${name}`,
  method: 'strategy',
  index: idx,
  k: 10,
  options: { name },
});

let out: ReportOutput;
beforeAll(async () => {
  const configs = [
    {
      ...common,
      name: 'e1',
      methods: [unified, { id: 'bm25', method: 'bm25', index: idx, k: 10 }],
      plan: { experiment: 'existing-systems', level, systems: ['bm25', 'unified-embedding', 'mem0'] },
    },
    {
      ...common,
      name: 'e2',
      methods: [unified, strategy('factual'), strategy('temporal')],
      plan: { experiment: 'oracle-upper-bound', level, gapTarget: 10 },
    },
    { ...common, name: 'e3', methods: [unified, adaptmr], plan: { experiment: 'adaptmr-vs-baselines', level } },
    { ...common, name: 'e5', methods: [unified, adaptmr], plan: { experiment: 'efficiency', level } },
  ].map((c) => loadedFromValue(c, c.name));
  const sweep = expandSweep({
    path: 'sweep',
    name: 'e4',
    base: {
      ...common,
      name: 'e4',
      methods: [adaptmr],
      stats: { ...common.stats, reference: 'adaptmr', referenceRun: 'e4.full' },
      plan: { experiment: 'ablations', level },
    },
    variations: [
      { id: 'full', set: {} },
      { id: 'no-classifier', set: { methods: { adaptmr: { options: { classifier: 'random' } } } } },
    ],
  }).map((r) => r.experiment);
  for (const exp of [...configs, ...sweep]) await runExperiment(exp, { out: file, progress: false, log: () => {} });
  out = await runReport(file, { outDir: dir, ks: [10] });
}, 240_000);

describe('plan experiment sections', () => {
  it('prints each experiment per dataset, at its own headline, with CIs and the plan verdicts', () => {
    const t = out.text;
    const headline = 'longmemeval-oracle: recall_any@10 \\(session level\\); locomo: recall_any@10 \\(turn level\\)';
    expect(t).toMatch(new RegExp(`Experiment 1 — existing systems by query type: ${headline}, run e1`));
    expect(t).toMatch(/plan systems missing from this run: mem0/);
    expect(t).toMatch(/plan prediction "factual high/);
    expect(t).toMatch(
      new RegExp(
        `Experiment 2 — oracle strategy vs unified-embedding, the best single strategy and the per-question ceiling: ${headline}`,
      ),
    );
    // The oracle gap resamples LoCoMo's conversations, as every other statistic of the file does.
    expect(t).toMatch(/locomo: cluster-sign-flip-(exact|mc), conversations resampled/);
    expect(t).toMatch(/longmemeval-oracle: (mcnemar-exact|sign-flip-exact|sign-flip-mc), questions resampled/);
    expect(t).toMatch(/tie rule: the type's own strategy when tied, else the first by id/);
    expect(t).toMatch(new RegExp(`Experiment 3 — AdaptMR vs baselines: ${headline}`));
    expect(t).toMatch(new RegExp(`Experiment 4 — ablations vs full AdaptMR \\(e4.full\\): ${headline}`));
    expect(t).toMatch(/Questions whose ranking the ablation changed/);
    for (const d of Object.keys(level)) {
      // Each section prints its stored verdicts, per dataset.
      for (const claim of [
        'factual-high-weak-low',
        'oracle-vs-unified',
        'oracle-vs-best-single',
        'premise-single-strategy',
        'adaptmr-vs-unified',
        'adaptmr-vs-baseline',
        'adaptmr-vs-all-baselines',
        'adaptmr-over-bm25',
        'ablation:no-classifier',
        'overhead',
      ]) {
        expect(t, `${d} ${claim}`).toMatch(new RegExp(`│ ${d} +│ ${claim} +│`));
      }
      expect(t).toMatch(new RegExp(`│ ${d} +│ no-classifier +│`));
      expect(t).toMatch(new RegExp(`Routing on ${d}: questions per route taken`));
      // Experiment 5: added ms per question (median, p95); the ratio only over a base of ≥ 1 ms.
      expect(t).toMatch(
        new RegExp(
          `│ ${d} +│ adaptmr +│ \\d+ +│ [\\d.]+ +│ [\\d.]+ +│ [\\d.]+ +│ [+−][\\d.]+, [+−][\\d.]+ +│ (n/a, base < 1 ms|[\\d.]+× \\[[\\d.]+, [\\d.]+\\])`,
        ),
      );
    }
    expect(t).toMatch(/Experiment 5 — efficiency, run e5/);
    expect(t).toMatch(/warm-up .*: \d+\.\d s/);
  });

  it('the ablation table is in fractions in the terminal and in points on the page, the same comparisons', async () => {
    const terminal = /│ locomo +│ no-classifier +│ ([+-]\d\.\d{3}) \[(-?\d\.\d{3}), (-?\d\.\d{3})\]/.exec(out.text);
    expect(terminal).not.toBeNull();
    const store = await openResultStore(file, { readOnly: true });
    try {
      const section = (await planSections(store, join(dir, 'charts-points'), { resamples: 200 })).find(
        (x) => x.experiment === 'ablations',
      )!;
      const table = section.tables!.find((t) => t.title.startsWith('Delta per variation and type'))!;
      expect(table.title).toBe('Delta per variation and type (points)');
      const row = table.rows.find((r) => r[0] === 'locomo')!;
      const [, d, lo, hi] = terminal!.map((x) => x.replace('-', '−'));
      const points = (x: string) =>
        `${x.startsWith('−') ? '−' : x.startsWith('+') ? '+' : ''}${(Math.abs(Number(x.replace('−', '-'))) * 100).toFixed(1)}`;
      expect(row.slice(2).join(' ')).toContain(
        `${points(d!)} [${points(lo!).replace('+', '')}, ${points(hi!).replace('+', '')}]`,
      );
    } finally {
      await store.close();
    }
  });

  it("stores the verdicts: oracle-vs-best-single per dataset and tied strategy, each ablation in a family of the sweep's ablations", async () => {
    const store = await openResultStore(file, { readOnly: true });
    try {
      const best = (await readVerdicts(store, { claim: 'oracle-vs-best-single' })).filter((v) => v.adaptType === 'all');
      expect([...new Set(best.map((v) => v.dataset))].sort()).toEqual(['locomo', 'longmemeval-oracle']);
      // A tie on the selection half gives one row per tied strategy, each flagged; never two rows for one strategy.
      for (const d of ['locomo', 'longmemeval-oracle']) {
        const mine = best.filter((v) => v.dataset === d);
        expect(new Set(mine.map((v) => v.methodB)).size).toBe(mine.length);
        for (const v of mine) expect(v.flags.includes('tie')).toBe(mine.length > 1);
      }
      const abl = await readVerdicts(store, { claim: 'ablation:*' });
      expect(abl.length).toBeGreaterThan(0);
      // One ablation in this sweep; a cell where it changed no ranking is inert: n/a, flagged, in no family.
      const tested = abl.filter((v) => !v.flags.includes('inert'));
      expect(new Set(tested.map((v) => v.familySize))).toEqual(new Set([1]));
      for (const v of abl.filter((x) => x.flags.includes('inert')))
        expect([v.verdict, v.familySize, v.reason.startsWith('inert: no-classifier changed no ranking')]).toEqual([
          'n/a',
          null,
          true,
        ]);
      const cmp = await store.query<{ family_size: number }>(
        `SELECT DISTINCT c.family_size FROM comparisons c JOIN runs r ON r.run_id = c.run
         WHERE r.name = 'e4.no-classifier' AND NOT starts_with(c.family, 'excluded')`,
      );
      expect(cmp).toEqual([{ family_size: 1 }]);
    } finally {
      await store.close();
    }
  });

  it('runs each dataset with its own units: LoCoMo as turns, LongMemEval as sessions', async () => {
    const store = await openResultStore(file, { readOnly: true });
    try {
      const grans = await store.query<{ dataset: string; granularity: string }>(
        `SELECT DISTINCT dataset, granularity FROM scores ORDER BY ALL`,
      );
      expect(grans).toEqual([
        { dataset: 'locomo', granularity: 'turn' },
        { dataset: 'longmemeval-oracle', granularity: 'session' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('uses the conversation bootstrap for LoCoMo and compares each variation with the base run', async () => {
    const store = await openResultStore(file, { readOnly: true });
    try {
      const kinds = await store.query<{ dataset: string; bootstrap: string }>(
        `SELECT DISTINCT dataset, bootstrap FROM score_cis ORDER BY ALL`,
      );
      expect(kinds).toEqual([
        { dataset: 'locomo', bootstrap: 'conversation' },
        { dataset: 'longmemeval-oracle', bootstrap: 'question' },
      ]);
      const abl = await store.query<{ run_b: string; test: string }>(
        `SELECT DISTINCT c.run_b, c.test FROM comparisons c JOIN runs r ON r.run_id = c.run WHERE r.name = 'e4.no-classifier' AND c.dataset = 'locomo'`,
      );
      const base = await store.query<{ run_id: string }>(`SELECT run_id FROM runs WHERE name = 'e4.full'`);
      expect(abl.length).toBeGreaterThan(0);
      expect(abl.map((r) => r.run_b)).toEqual(abl.map(() => base[0]!.run_id));
      expect(new Set(abl.map((r) => r.test))).toEqual(new Set(['cluster-sign-flip-exact']));
    } finally {
      await store.close();
    }
  });

  it('renders every section chart as SVG and PNG, with CI whiskers', () => {
    const names = out.planCharts.map((c) => c.svgPath.split('/').at(-1));
    expect(names).toEqual(
      expect.arrayContaining([
        'exp1-existing-systems.svg',
        'exp2-oracle-upper-bound.svg',
        'exp3-adaptmr-vs-baselines.svg',
        'exp4-ablations.svg',
        'exp5-efficiency.svg',
        'exp5-efficiency-stages.svg',
      ]),
    );
    for (const c of out.planCharts) {
      expect(existsSync(c.pngPath)).toBe(true);
      expect(readFileSync(c.pngPath).subarray(1, 4).toString()).toBe('PNG');
    }
    for (const name of ['exp1-existing-systems', 'exp2-oracle-upper-bound', 'exp4-ablations']) {
      const svg = readFileSync(join(dir, 'charts', `${name}.svg`), 'utf8');
      expect(svg, name).toMatch(/aria-roledescription="rule mark"/);
    }
  });
});
