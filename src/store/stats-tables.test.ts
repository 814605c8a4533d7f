// The statistics tables on a real DuckDB file: CIs joined into scores_by_type, comparisons with Holm, the cluster
// bootstrap for conversation-style ids, errored questions excluded and counted, and idempotent recomputation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScoreInputs, openResultStore, refreshStats, type ResultStore } from './index.ts';
import { RUN, writeStatsFixture } from './testing/stats-fixture.ts';
import { PLAN_EXPERIMENT_REGISTRY } from '../plan-experiments/registry.ts';

let dir: string;
let store: ResultStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-stats-'));
  store = await openResultStore(join(dir, 'r.duckdb'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const fill = (stats: object = {}) => writeStatsFixture(store, stats);

describe('statistics tables', () => {
  it('fill scores_by_type CI columns, per-dataset bootstrap kind, and comparisons with Holm', async () => {
    await fill({ resamples: 500 });
    const r = await refreshStats(store, PLAN_EXPERIMENT_REGISTRY);
    expect(r.recomputed).toBe(true);
    const cells = await store.query<{
      dataset: string;
      method: string;
      n: number;
      mean: number;
      ci_low: number;
      ci_high: number;
      bootstrap: string;
    }>(
      `SELECT dataset, method, n, mean, ci_low, ci_high, bootstrap FROM scores_by_type
       WHERE metric = 'recall_any' AND adapt_type = 'all' AND native_type = 'all' ORDER BY dataset, method`,
    );
    expect(cells.map((c) => [c.dataset, c.method, c.n, c.bootstrap])).toEqual([
      ['convs', 'base', 40, 'conversation'],
      ['convs', 'better', 39, 'conversation'],
      ['plain', 'base', 40, 'question'],
      ['plain', 'better', 39, 'question'],
    ]);
    for (const c of cells) {
      expect(c.ci_low).toBeLessThanOrEqual(c.mean);
      expect(c.ci_high).toBeGreaterThanOrEqual(c.mean);
    }
    // Every question of a conversation has the same base recall (i % 4 fixes i % 2), so the cluster CI is far wider.
    const width = (d: string) => cells.find((c) => c.dataset === d && c.method === 'base')!;
    expect(width('convs').ci_high - width('convs').ci_low).toBeGreaterThan(
      width('plain').ci_high - width('plain').ci_low,
    );
    expect(await store.query(`SELECT count(*)::INT AS n FROM scores_by_type WHERE ci_low IS NULL`)).toEqual([{ n: 0 }]);

    const cmp = await store.query<Record<string, unknown>>(
      `SELECT * FROM comparisons WHERE dataset = 'plain' AND metric = 'recall_any' ORDER BY adapt_type`,
    );
    expect(cmp.map((c) => c.adapt_type)).toEqual(['all', 'factual', 'temporal']);
    const all = cmp[0]!;
    expect(all).toMatchObject({
      run: RUN,
      run_b: RUN,
      method_a: 'better',
      method_b: 'base',
      n_pairs: 39,
      n_excluded: 1,
      test: 'mcnemar-exact',
      bootstrap: 'question',
    });
    // i ≠ 7 of 0…39: better 1 on 29 (i % 4 ≠ 0 minus i = 7), base 1 on 20, both on 10 (i ≡ 2 mod 4)
    expect(all.mean_diff).toBeCloseTo((29 - 20) / 39, 12);
    expect(all.family).toBe('exp/plain/session/recall_any@5/all');
    expect(all.p_holm).toBe(all.p_value); // one comparison per family
    const convs = await store.query<{ test: string }>(`SELECT DISTINCT test FROM comparisons WHERE dataset = 'convs'`);
    expect(convs.map((c) => c.test)).toEqual(['cluster-sign-flip-exact']);
    const ndcg = await store.query<{ test: string; mean_diff: number }>(
      `SELECT test, mean_diff FROM comparisons WHERE dataset = 'plain' AND metric = 'ndcg_any' AND adapt_type = 'all'`,
    );
    expect(ndcg[0]!.test).toBe('sign-flip-mc');
    expect(ndcg[0]!.mean_diff).toBeGreaterThan(0);
  });

  it('loadScoreInputs reads every counted score with its question types, as the plain join does (k NULL included)', async () => {
    await fill();
    // A metric without k, and an uncounted row, beside the fixture's rows.
    await store.query(`INSERT INTO scores SELECT run_id, dataset, question_id, method, granularity, level, 'mrr', NULL, value / 2, counted, NULL
      FROM scores WHERE metric = 'recall_any' AND dataset = 'plain'`);
    await store.query(`UPDATE scores SET counted = false WHERE metric = 'ndcg_any' AND question_id = 'q03'`);
    const plain = await store.query<Record<string, unknown>>(
      `SELECT s.run_id AS "runId", s.dataset, s.question_id AS "questionId", s.method, s.granularity, s.level, s.metric, s.k, s.value,
         q.adapt_type AS "adaptType", q.native_type AS "nativeType"
       FROM scores s JOIN questions q ON q.run_id = s.run_id AND q.dataset = s.dataset AND q.question_id = s.question_id WHERE s.counted`,
    );
    const key = (r: object) => JSON.stringify(r, Object.keys(r).sort());
    const loaded = (await loadScoreInputs(store)).map(key).sort();
    expect(loaded.length).toBe(2 * 40 * 2 + 2 * 39 * 2 + 40 + 39 - 2);
    expect(loaded).toEqual(plain.map(key).sort());
  });

  it('is idempotent, and recomputes identically when the rows change back', async () => {
    await fill({ resamples: 300 });
    await refreshStats(store, PLAN_EXPERIMENT_REGISTRY);
    const snapshot = async () => store.query(`SELECT * FROM score_cis ORDER BY ALL`);
    const first = await snapshot();
    expect((await refreshStats(store, PLAN_EXPERIMENT_REGISTRY)).recomputed).toBe(false);
    expect((await refreshStats(store, PLAN_EXPERIMENT_REGISTRY, { force: true })).recomputed).toBe(true);
    expect(await snapshot()).toEqual(first);
    await store.query(`UPDATE scores SET value = 1 - value WHERE question_id = 'q01' AND metric = 'recall_any'`);
    expect((await refreshStats(store, PLAN_EXPERIMENT_REGISTRY)).recomputed).toBe(true);
    expect(await snapshot()).not.toEqual(first);
  });

  it('Holm pools the types when stats.family = metric, and a percentile CI is recorded as such', async () => {
    await fill({ resamples: 300, family: 'metric', ci: 'percentile' });
    await refreshStats(store, PLAN_EXPERIMENT_REGISTRY);
    const rows = await store.query<{ family: string; p_value: number; p_holm: number }>(
      `SELECT family, p_value, p_holm FROM comparisons WHERE dataset = 'plain' AND metric = 'recall_any' ORDER BY p_value`,
    );
    expect(new Set(rows.map((r) => r.family))).toEqual(new Set(['exp/plain/session/recall_any@5']));
    expect(rows[0]!.p_holm).toBeCloseTo(Math.min(1, rows[0]!.p_value * 3), 12);
    const methods = await store.query<{ m: string }>(`SELECT DISTINCT ci_method AS m FROM score_cis`);
    expect(methods.map((m) => m.m)).toEqual(['percentile']);
  });
});
