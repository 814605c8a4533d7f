// End to end on the new datasets (real files through ADAPTMR_DATA_DIR, a few questions each): the results file keeps
// BEAM's abilities outside the five types out of every average while storing their rows, reports LoCoMo-Plus as its
// own type, stores both experiments' verdicts (beyond-benchmarks: experiment 3's and 2's claims per dataset;
// router-transfer: one per off-diagonal cell) with the comparisons rows' families, and the two report sections
// render from it, printing the stored rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openResultStore, readVerdicts } from '../store/index.ts';
import { queryFile } from '../store/testing/query-file.ts';
import { planSections } from '../report/plan/index.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

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
  - { id: strategy-factual, method: strategy, index: { granularity: turn }, k: 10, options: { name: factual, firstStage: embedding } }
  - { id: strategy-temporal, method: strategy, index: { granularity: turn }, k: 10, options: { name: temporal, firstStage: embedding } }
  - { id: adaptmr-rules, method: adaptmr, index: { granularity: turn }, k: 10, options: { classifier: { name: rules }, router: { kind: single }, firstStage: embedding } }
  - { id: adaptmr-rules-bm25, method: adaptmr, index: { granularity: turn }, k: 10, options: { classifier: { name: rules }, router: { kind: single }, firstStage: bm25 } }
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
    options: { classifier: { name: onnx, options: { model: calibration/transfer/classifier-locomo.onnx } }, router: { kind: single }, firstStage: embedding }
  - { id: adaptmr-oracle, method: adaptmr, index: { granularity: turn }, k: 10, options: { router: { kind: oracle }, firstStage: embedding } }
metrics: { ks: [5, 10] }
stats: { resamples: 200 }
plan: { experiment: router-transfer, level: turn, k: 10, transfer: { adaptmr-from-locomo: locomo } }
`;

describe('BEAM, MemDaily and LoCoMo-Plus through the runner', () => {
  const out = join(dir, 'beyond.duckdb');

  it('stores every row; outside abilities are kept out of every mean; cognitive is its own type', async () => {
    const s = await runExperiment(parseExperiment(BEYOND, 'beyond-small.yaml'), {
      out,
      progress: false,
      workers: 0,
      log: () => {},
    });
    expect(s.errors).toBe(0);
    expect(s.questions).toBe(10 + 4 + 4);
    const types = await queryFile<{ dataset: string; adapt_type: string; n: number }>(
      out,
      `select dataset, adapt_type, count(*)::INT n from questions group by all order by all`,
    );
    expect(types).toEqual([
      // Even-numbered questions of chat 1: one per ability (abilities are listed two questions each).
      { dataset: 'beam-100k', adapt_type: 'abstention', n: 1 },
      { dataset: 'beam-100k', adapt_type: 'factual', n: 1 },
      { dataset: 'beam-100k', adapt_type: 'multi-hop', n: 1 },
      { dataset: 'beam-100k', adapt_type: 'outside', n: 3 },
      { dataset: 'beam-100k', adapt_type: 'temporal', n: 2 },
      { dataset: 'beam-100k', adapt_type: 'update', n: 2 },
      { dataset: 'locomo-plus', adapt_type: 'cognitive', n: 4 },
      // 05_post_processing_events:t3's answer is a date resolved from a relative time: temporal.
      { dataset: 'memdaily', adapt_type: 'factual', n: 1 },
      { dataset: 'memdaily', adapt_type: 'multi-hop', n: 2 },
      { dataset: 'memdaily', adapt_type: 'temporal', n: 1 },
    ]);
    const outside = await queryFile<{ counted: boolean; why: string; n: number }>(
      out,
      `select s.counted, s.excluded_why why, count(*)::INT n from scores s join questions q using (run_id, dataset, question_id)
       where q.adapt_type = 'outside' and s.level = 'turn' group by all order by all`,
    );
    expect(outside.map((r) => r.counted)).toEqual(outside.map(() => false));
    expect(outside.map((r) => r.why).sort()).toEqual([
      'outside the five AdaptMR types (instruction_following; reported by native type)',
      'outside the five AdaptMR types (preference_following; reported by native type)',
      'outside the five AdaptMR types (summarization; reported by native type)',
    ]);
    const cells = await queryFile<{ dataset: string; adapt_type: string }>(
      out,
      `select distinct dataset, adapt_type from scores_by_type where native_type = 'all' and metric = 'recall_any' and level = 'turn' and k = 10 order by all`,
    );
    expect(cells.filter((c) => c.dataset === 'locomo-plus').map((c) => c.adapt_type)).toEqual(['all', 'cognitive']);
    expect(cells.some((c) => c.adapt_type === 'outside')).toBe(false);
    // The overall BEAM mean is over the counted questions only: 10 − 3 outside − 1 abstention.
    const [overall] = await queryFile<{ n: number }>(
      out,
      `select n::INT n from scores_by_type where dataset = 'beam-100k' and adapt_type = 'all' and native_type = 'all' and method = 'bm25' and metric = 'recall_any' and level = 'turn' and k = 10`,
    );
    expect(overall!.n).toBe(6);
  }, 60_000);

  it('stores the verdicts of both experiments; the two sections render and print the stored rows', async () => {
    await runExperiment(parseExperiment(TRANSFER, 'transfer-small.yaml'), {
      out,
      progress: false,
      workers: 0,
      log: () => {},
    });
    const store = await openResultStore(out, { readOnly: true });
    try {
      const beyondRows = await readVerdicts(store, { experiment: 'beyond-benchmarks' });
      const claims = [
        'adaptmr-over-bm25',
        'adaptmr-over-hybrid',
        'adaptmr-vs-all-baselines',
        'adaptmr-vs-baseline',
        'adaptmr-vs-unified',
        'oracle-vs-best-single',
        'oracle-vs-unified',
        'premise-single-strategy',
      ];
      for (const dataset of ['beam-100k', 'memdaily', 'locomo-plus']) {
        // BEAM alone has update questions, so it alone gets the stale-evidence claim.
        const want = dataset === 'beam-100k' ? [...claims, 'adaptmr-update-stale'].sort() : claims;
        expect([...new Set(beyondRows.filter((v) => v.dataset === dataset).map((v) => v.claim))].sort()).toEqual(want);
      }
      // Each dataset at its headline; no claim on BEAM's abilities outside the five, LoCoMo-Plus's `cognitive` in "all" only.
      expect(
        new Set(beyondRows.filter((v) => v.dataset === 'memdaily' && v.metric !== null).map((v) => v.metric)),
      ).toEqual(new Set(['ndcg_any']));
      expect(beyondRows.some((v) => v.adaptType === 'outside')).toBe(false);
      expect(new Set(beyondRows.filter((v) => v.dataset === 'locomo-plus').map((v) => v.adaptType))).toEqual(
        new Set(['all']),
      );
      // adaptmr-vs-unified reads its comparisons row: same n, p_holm and family (primary: both variants × 2 claims).
      const vsUnified = beyondRows.find(
        (v) =>
          v.claim === 'adaptmr-vs-unified' &&
          v.dataset === 'beam-100k' &&
          v.adaptType === 'all' &&
          v.methodA === 'adaptmr-rules',
      )!;
      const [cmp] = await store.query<{ n_pairs: number; p_holm: number | null; family: string; family_size: number }>(
        `SELECT n_pairs, p_holm, family, family_size FROM comparisons WHERE dataset = 'beam-100k' AND method_a = 'adaptmr-rules' AND adapt_type = 'all'
         AND metric = 'recall_any' AND level = 'turn' AND k = 10`,
      );
      expect(vsUnified).toMatchObject({ n: cmp!.n_pairs, pHolm: cmp!.p_holm, family: cmp!.family, familySize: 4 });
      expect(cmp!.family).toMatch(/\/primary\/all$/);
      // Four MemDaily questions: too few for any exact paired test.
      expect(
        beyondRows.find((v) => v.claim === 'adaptmr-over-bm25' && v.dataset === 'memdaily' && v.adaptType === 'all'),
      ).toMatchObject({ verdict: 'n/a', reason: expect.stringMatching(/n too small/) });

      const transferRows = await readVerdicts(store, { experiment: 'router-transfer' });
      expect(transferRows.map((v) => v.claim).sort()).toEqual([
        'transfer:locomo->beam-100k',
        'transfer:locomo->locomo-plus',
        'transfer:locomo->memdaily',
      ]);
      for (const v of transferRows) {
        const [c] = await store.query<{ n_pairs: number; family: string }>(
          `SELECT n_pairs, family FROM comparisons WHERE dataset = $1 AND method_a = 'adaptmr-from-locomo' AND adapt_type = 'all' AND metric = $2 AND level = 'turn' AND k = 10`,
          [v.dataset, v.metric],
        );
        expect(v).toMatchObject({
          methodA: 'adaptmr-from-locomo',
          methodB: 'unified-embedding',
          n: c!.n_pairs,
          family: c!.family,
          // Router transfer is one family of all its cells (claims-transfer.ts): here the three test datasets.
          familySize: transferRows.length,
        });
        expect(v.family).toBe('transfer-small/transfer');
      }

      const sections = await planSections(store, join(dir, 'charts'), { resamples: 200 });
      const beyond = sections.find((x) => x.experiment === 'beyond-benchmarks')!.text;
      expect(beyond).toContain('memdaily: ndcg_any@10 (turn level)');
      expect(beyond).toMatch(/│ cognitive/);
      expect(beyond).toMatch(
        /Outside the per-type headline[\s\S]*instruction_following[\s\S]*preference_following[\s\S]*summarization/,
      );
      expect(beyond).toContain('Chinese (memdaily) next to English (beam-100k), both at ndcg_any@10 (turn level)');
      expect(beyond).toContain('Oracle strategy (plan experiment 2');
      // BEAM per ability beside the type that averages it, not only the abilities outside the five.
      expect(beyond).toMatch(
        /BEAM per ability, beside the AdaptMR type[^\n]*\n[\s\S]*\((temporal|update|factual|multi-hop|abstention)\)/,
      );
      expect(beyond).toMatch(/Verdicts — experiment 3[\s\S]*adaptmr-over-bm25[\s\S]*premise-single-strategy/);
      const transfer = sections.find((x) => x.experiment === 'router-transfer')!.text;
      expect(transfer).toMatch(/locomo \(adaptmr-from-locomo\)\s*│[^\n]*%[^\n]*│[^\n]*%[^\n]*│ n\/a/); // accuracy on BEAM, MemDaily; none on LoCoMo-Plus
      expect(transfer).toMatch(/adaptmr-oracle \(gold-type routing\)\s*│ gold type \(gold-type routing\)/);
      expect(transfer).toMatch(/Out of distribution .*, 3 cells vs unified-embedding/);
      // No plan.families given: the default family is the whole table (claims-transfer.ts), and the text says so.
      expect(transfer).toMatch(/Holm within 1 declared family \(plan.families.transfer: all\)/);
      expect(transfer).toMatch(/Verdicts \(one per off-diagonal cell[\s\S]*transfer:locomo->beam-100k/);
    } finally {
      await store.close();
    }
  }, 120_000);
});
