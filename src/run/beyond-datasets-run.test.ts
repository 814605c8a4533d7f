// End to end on the new datasets (real files through ADAPTMR_DATA_DIR, a few questions each): the results file keeps
// BEAM's abilities outside the five types out of every average while storing their rows, reports LoCoMo-Plus as its
// own type, and the two report sections (beyond-benchmarks, router-transfer) render from it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openResultStore } from '../store/index.ts';
import { queryFile } from '../store/testing/query-file.ts';
import { planSections } from '../report/plan/index.ts';
import { parseExperiment } from './load-config.ts';
import { runExperiment } from './runner.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-beyond-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DATASETS = `
datasets:
  - name: beam-100k
    questionIds: ['100K-1:q0', '100K-1:q2', '100K-1:q4', '100K-1:q6', '100K-1:q8', '100K-1:q10', '100K-1:q12', '100K-1:q14', '100K-1:q16', '100K-1:q18']
  - name: memdaily
    questionIds: ['01_simple_events:t0', '02_conditional_roles:t1', '05_post_processing_events:t3', '04_aggregative_roles:t0']
  - name: locomo-plus
    limit: 4
    index: { speakerPrefix: true }
`;
const BEYOND = `
name: beyond-small
${DATASETS}
methods:
  - { id: unified-embedding, method: unified-embedding, index: { granularity: turn }, k: 10 }
  - { id: bm25, method: bm25, index: { granularity: turn }, k: 10 }
  - { id: strategy-factual, method: strategy, index: { granularity: turn }, k: 10, options: { name: factual } }
  - { id: strategy-temporal, method: strategy, index: { granularity: turn }, k: 10, options: { name: temporal } }
metrics: { ks: [5, 10] }
stats: { resamples: 200 }
plan: { experiment: beyond-benchmarks, level: turn, k: 10, metric: { memdaily: ndcg_any }, languages: { zh: memdaily, en: beam-100k } }
`;
const TRANSFER = `
name: transfer-small
${DATASETS}
methods:
  - { id: unified-embedding, method: unified-embedding, index: { granularity: turn }, k: 10 }
  - id: adaptmr-from-locomo
    method: adaptmr
    index: { granularity: turn }
    k: 10
    options: { classifier: { name: onnx, options: { model: calibration/transfer/classifier-locomo.onnx } }, router: { kind: single } }
  - { id: adaptmr-oracle, method: adaptmr, index: { granularity: turn }, k: 10, options: { router: { kind: oracle } } }
metrics: { ks: [5, 10] }
stats: { resamples: 200 }
plan: { experiment: router-transfer, level: turn, k: 10, transfer: { adaptmr-from-locomo: locomo } }
`;

describe('BEAM, MemDaily and LoCoMo-Plus through the runner', () => {
  const out = join(dir, 'beyond.duckdb');

  it('stores every row; outside abilities are kept out of every mean; cognitive is its own type', async () => {
    const s = await runExperiment(parseExperiment(BEYOND, 'beyond-small.yaml'), { out, progress: false, workers: 0, log: () => {} });
    expect(s.errors).toBe(0);
    expect(s.questions).toBe(10 + 4 + 4);
    const types = await queryFile<{ dataset: string; adapt_type: string; n: number }>(out, `select dataset, adapt_type, count(*)::INT n from questions group by all order by all`);
    expect(types).toEqual([
      // Even-numbered questions of chat 1: one per ability (abilities are listed two questions each).
      { dataset: 'beam-100k', adapt_type: 'abstention', n: 1 }, { dataset: 'beam-100k', adapt_type: 'factual', n: 1 },
      { dataset: 'beam-100k', adapt_type: 'multi-hop', n: 1 }, { dataset: 'beam-100k', adapt_type: 'outside', n: 3 },
      { dataset: 'beam-100k', adapt_type: 'temporal', n: 2 }, { dataset: 'beam-100k', adapt_type: 'update', n: 2 },
      { dataset: 'locomo-plus', adapt_type: 'cognitive', n: 4 },
      // 05_post_processing_events:t3's answer is a date resolved from a relative time: temporal.
      { dataset: 'memdaily', adapt_type: 'factual', n: 1 }, { dataset: 'memdaily', adapt_type: 'multi-hop', n: 2 }, { dataset: 'memdaily', adapt_type: 'temporal', n: 1 },
    ]);
    const outside = await queryFile<{ counted: boolean; why: string; n: number }>(out,
      `select s.counted, s.excluded_why why, count(*)::INT n from scores s join questions q using (run_id, dataset, question_id)
       where q.adapt_type = 'outside' and s.level = 'turn' group by all order by all`);
    expect(outside.map((r) => r.counted)).toEqual(outside.map(() => false));
    expect(outside.map((r) => r.why).sort()).toEqual([
      'outside the five AdaptMR types (instruction_following; reported by native type)',
      'outside the five AdaptMR types (preference_following; reported by native type)',
      'outside the five AdaptMR types (summarization; reported by native type)',
    ]);
    const cells = await queryFile<{ dataset: string; adapt_type: string }>(out,
      `select distinct dataset, adapt_type from scores_by_type where native_type = 'all' and metric = 'recall_any' and level = 'turn' and k = 10 order by all`);
    expect(cells.filter((c) => c.dataset === 'locomo-plus').map((c) => c.adapt_type)).toEqual(['all', 'cognitive']);
    expect(cells.some((c) => c.adapt_type === 'outside')).toBe(false);
    // The overall BEAM mean is over the counted questions only: 10 − 3 outside − 1 abstention.
    const [overall] = await queryFile<{ n: number }>(out, `select n::INT n from scores_by_type where dataset = 'beam-100k' and adapt_type = 'all' and native_type = 'all' and method = 'bm25' and metric = 'recall_any' and level = 'turn' and k = 10`);
    expect(overall!.n).toBe(6);
  }, 60_000);

  it('the two sections render: outside abilities, cognitive, Chinese next to English; train × test tables', async () => {
    await runExperiment(parseExperiment(TRANSFER, 'transfer-small.yaml'), { out, progress: false, workers: 0, log: () => {} });
    const store = await openResultStore(out, { readOnly: true });
    try {
      const sections = await planSections(store, join(dir, 'charts'), { resamples: 200 });
      const beyond = sections.find((x) => x.experiment === 'beyond-benchmarks')!.text;
      expect(beyond).toContain('memdaily: ndcg_any@10 (turn level)');
      expect(beyond).toMatch(/│ cognitive/);
      expect(beyond).toMatch(/Outside the per-type headline[\s\S]*instruction_following[\s\S]*preference_following[\s\S]*summarization/);
      expect(beyond).toContain('Chinese (memdaily) next to English (beam-100k), both at ndcg_any@10 (turn level)');
      expect(beyond).toContain('Oracle strategy (plan experiment 2');
      const transfer = sections.find((x) => x.experiment === 'router-transfer')!.text;
      expect(transfer).toMatch(/locomo \(adaptmr-from-locomo\)\s*│[^\n]*%[^\n]*│[^\n]*%[^\n]*│ n\/a/); // accuracy on BEAM, MemDaily; none on LoCoMo-Plus
      expect(transfer).toMatch(/adaptmr-oracle \(upper bound\)\s*│ gold type \(upper bound\)/);
      expect(transfer).toMatch(/Out of distribution .* of 3 cells/);
    } finally {
      await store.close();
    }
  }, 60_000);
});
