/**
 * Small results files of the plan's five experiments for the report tests, made by the real runner on real data
 * (ADAPTMR_DATA_DIR): LongMemEval oracle as sessions next to LoCoMo as turns, each at its own headline level, a few
 * questions per type. Three files, one page each, as the committed experiments make them:
 *  - `exp125.duckdb`: experiment 1 (existing systems), 2 (oracle strategy) and 5 (efficiency);
 *  - `exp3.duckdb`: experiment 3 with a long list of methods with long ids (a legend and axes that must fit);
 *  - `exp4.duckdb`: experiment 4, a sweep of the full system and three ablations.
 */
import { join } from 'node:path';
import { loadedFromValue } from '../../run/config/load-config.ts';
import { runExperiment } from '../../run/runner.ts';
import { expandSweep } from '../../run/sweep/sweep-file.ts';

export interface PlanFiles {
  exp125: string;
  exp3: string;
  exp4: string;
}

const common = {
  seed: 3,
  datasets: [
    { name: 'longmemeval-oracle', sample: { perType: 3 } },
    { name: 'locomo', sample: { perType: 3 }, index: { granularity: 'turn' } },
  ],
  metrics: { ks: [5, 10] },
  stats: { resamples: 200 },
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
const strategy = (name: string, id = `strategy-${name}`) => ({
  id,
  method: 'strategy',
  index: idx,
  k: 10,
  options: { name },
});

/** Experiment 3's methods: thirteen, several with long ids, as a real comparison lists them. */
const exp3Methods = [
  unified,
  { id: 'bm25', method: 'bm25', index: idx, k: 10 },
  {
    id: 'adaptmr-single-rules-with-a-long-descriptive-name',
    method: 'adaptmr',
    index: idx,
    k: 10,
    options: { classifier: { name: 'rules' }, router: { kind: 'single' } },
  },
  {
    id: 'adaptmr-fusion-rules-probability-weighted',
    method: 'adaptmr',
    index: idx,
    k: 10,
    options: { classifier: { name: 'rules' }, router: { kind: 'fusion' } },
  },
  {
    id: 'adaptmr-single-rules-bm25-first-stage',
    method: 'adaptmr',
    index: idx,
    k: 10,
    options: { classifier: { name: 'rules' }, router: { kind: 'single' }, firstStage: 'bm25' },
  },
  strategy('factual', 'strategy-factual-entity-aware-reranking'),
  strategy('temporal', 'strategy-temporal-with-date-arithmetic'),
  strategy('update'),
  strategy('multi-hop'),
  strategy('abstention'),
  { id: 'bm25-turns-with-speaker-names', method: 'bm25', index: { granularity: 'turn', speakerPrefix: true }, k: 10 },
  { id: 'unified-embedding-over-turns', method: 'unified-embedding', index: { granularity: 'turn' }, k: 10 },
  { id: 'full-context', method: 'full-context', index: idx },
];

export async function makePlanResults(dir: string): Promise<PlanFiles> {
  const files: PlanFiles = {
    exp125: join(dir, 'exp125.duckdb'),
    exp3: join(dir, 'exp3.duckdb'),
    exp4: join(dir, 'exp4.duckdb'),
  };
  const run = (c: { name: string } & Record<string, unknown>, out: string) =>
    runExperiment(loadedFromValue(c, c.name), { out, progress: false, log: () => {} });
  await run(
    {
      ...common,
      name: 'e1',
      methods: [unified, { id: 'bm25', method: 'bm25', index: idx, k: 10 }],
      plan: { experiment: 'existing-systems', level, systems: ['bm25', 'unified-embedding'] },
    },
    files.exp125,
  );
  await run(
    {
      ...common,
      name: 'e2',
      methods: [unified, strategy('factual'), strategy('temporal'), strategy('multi-hop')],
      plan: { experiment: 'oracle-upper-bound', level, gapTarget: 10 },
    },
    files.exp125,
  );
  await run(
    { ...common, name: 'e5', methods: [unified, adaptmr], plan: { experiment: 'efficiency', level } },
    files.exp125,
  );
  await run(
    { ...common, name: 'e3', methods: exp3Methods, plan: { experiment: 'adaptmr-vs-baselines', level } },
    files.exp3,
  );
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
      { id: 'no-temporal-strategy', set: { methods: { adaptmr: { options: { replace: { temporal: 'unified' } } } } } },
      {
        id: 'no-multi-hop-strategy',
        set: { methods: { adaptmr: { options: { replace: { 'multi-hop': 'unified' } } } } },
      },
    ],
  }).map((r) => r.experiment);
  for (const exp of sweep) await runExperiment(exp, { out: files.exp4, progress: false, log: () => {} });
  return files;
}
