// The quick start's two committed experiment files (experiments/quickstart.yaml, quickstart-oracle.yaml): they ask the
// same questions of the same data at the same headlines, run offline into one results file (here on a smaller
// sample of the same seeded draw), and `adaptmr report --summary` then shows each dataset's headline table with CIs,
// the oracle table and experiment 2's and 3's stored verdict lines — what `npm run quickstart` prints.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadedFromValue } from '../src/run/config/load-config.ts';
import { REPO_ROOT } from '../src/run/record/provenance.ts';
import { runExperiment } from '../src/run/runner.ts';
import { runSummary, runVerdicts } from '../src/report/summary.ts';
import { openResultStore, readVerdicts } from '../src/store/index.ts';
import { TEST_DATA_DIR } from './data-path.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-quickstart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface QuickstartFile {
  pull: boolean;
  datasets: { name: string; sample: { perType: number }; index?: unknown }[];
  embedder: unknown;
  metrics: unknown;
  stats: { reference: string };
  plan: { experiment: string; headline: unknown };
  methods: { id: string; method: string }[];
}
const read = (name: string): QuickstartFile =>
  parse(readFileSync(join(REPO_ROOT, 'experiments', name), 'utf8')) as QuickstartFile;
const [claim, oracle] = [read('quickstart.yaml'), read('quickstart-oracle.yaml')];

describe('the quick start', () => {
  it('asks both parts the same questions of the same data, at the same headlines, and pulls what is missing', () => {
    expect(claim.pull && oracle.pull).toBe(true);
    expect(oracle.datasets.map(({ name, sample, index }) => ({ name, sample, index }))).toEqual(
      claim.datasets.map(({ name, sample, index }) => ({ name, sample, index })),
    );
    for (const key of ['embedder', 'metrics', 'stats'] as const) expect(oracle[key], key).toEqual(claim[key]);
    expect(oracle.plan.headline).toEqual(claim.plan.headline);
    expect([claim.plan.experiment, oracle.plan.experiment]).toEqual(['adaptmr-vs-baselines', 'oracle-upper-bound']);
    expect(claim.methods.map((m) => m.method).sort()).toEqual(['adaptmr', 'bm25', 'unified-embedding']);
    expect(oracle.methods.filter((m) => m.method === 'strategy')).toHaveLength(5);
  });

  it('runs both parts into one file; --summary prints the findings in ≤ 30 lines, --verdicts the tables, the oracle and every verdict', async () => {
    const out = join(dir, 'quickstart.duckdb');
    for (const [file, value] of [
      ['quickstart.yaml', claim],
      ['quickstart-oracle.yaml', oracle],
    ] as const) {
      const small = { ...value, datasets: value.datasets.map((d) => ({ ...d, sample: { perType: 8 } })) };
      await runExperiment(loadedFromValue(small, file), {
        out,
        dataDir: TEST_DATA_DIR,
        progress: false,
        log: () => {},
      });
    }
    const summary = await runSummary(out);
    expect(summary.split('\n').length).toBeLessThanOrEqual(30);
    expect(summary).toMatch(/^Experiment 2 — the oracle strategy \(held-out\) \(oracle-upper-bound\)$/mu);
    expect(summary).toMatch(/^ {2}longmemeval-s: oracle strategy \(held-out\) − unified /mu);
    expect(summary).toMatch(/^ {2}locomo: AdaptMR vs unified-embedding: \d of 1 variants reached/mu);
    // "upper bound" only next to the ceiling (test/wording.test.ts holds the source text to the same rule).
    for (const line of summary.split('\n')) if (/upper bound/i.test(line)) expect(line).toMatch(/ceiling/);
    const text = await runVerdicts(out);
    for (const title of [
      'longmemeval-s: recall_any@1 (session level) by AdaptMR type',
      'locomo: recall_any@10 (turn level) by AdaptMR type',
    ])
      expect(text).toContain(title);
    // The reference both parts ran on the same questions is one row per table.
    expect(text.match(/│ (longmemeval-s|locomo) +│ unified-embedding +│/g)).toHaveLength(2);
    expect(text).toContain('Oracle strategy per type');
    for (const line of [
      /^ {2}longmemeval-s adaptmr-vs-unified \[all\] adaptmr-rules − unified-embedding: .* → (reached|not established|not met|n\/a) /mu,
      /^ {2}locomo adaptmr-vs-baseline \[all\] adaptmr-rules − bm25: /mu,
      /^ {2}locomo adaptmr-vs-all-baselines \[all\] adaptmr-rules − \S+: /mu,
      /^ {2}locomo oracle-vs-unified \[all\] oracle − unified-embedding: /mu,
      /^ {2}longmemeval-s premise-single-strategy \[all\] oracle − strategy-\S+: /mu,
    ])
      expect(text).toMatch(line);
    expect(text.indexOf('Experiment 2 —')).toBeLessThan(text.indexOf('Experiment 3 —'));
    // Claims the quick start has no method for are stored, and left to the full report.
    const store = await openResultStore(out, { readOnly: true });
    const stored = await readVerdicts(store, { claim: 'adaptmr-over-bm25' });
    await store.close();
    expect(stored.length).toBeGreaterThan(0);
    expect(text).not.toContain('adaptmr-over-bm25');
  });
});
