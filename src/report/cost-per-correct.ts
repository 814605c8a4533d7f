/**
 * What a correct answer costs, per dataset × method: the method's LLM cost (every call it made to retrieve and read —
 * classifier, strategy steps, memorising, the reader — at the price table, cache hits at their original cost so the
 * figure is stable across reruns; the judge and the extra `qa.ks` cutoff reads are evaluation, left out) divided by
 * the number of questions it answered correctly (the sum of judged accuracy over counted questions). Beside it, the
 * share of prompt tokens the provider served from its prompt cache and of calls sent through the Batch API.
 * Also the accuracy at each `qa.ks` cutoff (one retrieval, read at several cutoffs; scores with k = the cutoff).
 */
import Table from 'cli-table3';
import type { ResultStore } from '../store/index.ts';
import type { SeriesKey } from './series-label.ts';

export interface CostPerCorrectRow {
  dataset: string;
  series: string;
  /** Counted questions with a judged accuracy. */
  n: number;
  correct: number;
  accuracy: number;
  /** The method's LLM cost (judge and cutoff reads excluded). */
  costUsd: number;
  /** costUsd / correct; null when nothing was answered correctly. */
  perCorrectUsd: number | null;
  /** Of the method's prompt tokens, the share served from the provider's prompt cache. */
  cachedShare: number | null;
  /** Of the method's calls, the share answered through the Batch API. */
  batchShare: number | null;
}

// A stage is evaluation when it is the judge (judge, judge:k5…) or a cutoff read (reader:k5).
const METHOD_STAGE = `NOT (c.stage = 'judge' OR starts_with(c.stage, 'judge:') OR regexp_matches(c.stage, '^reader:k[0-9]+$'))`;

const SQL = `
WITH acc AS (
  SELECT s.run_id, s.dataset, s.method, any_value(s.granularity) AS granularity, count(*) AS n, sum(s.value) AS correct
  FROM scores s WHERE s.level = 'qa' AND s.metric = 'accuracy' AND s.k IS NULL AND s.counted GROUP BY ALL),
cost AS (
  SELECT c.run_id, c.dataset, c.method, sum(c.cost_usd) AS cost,
         sum(c.cached_tokens)::DOUBLE / nullif(sum(c.prompt_tokens), 0) AS cached_share,
         avg(c.batch::INT) AS batch_share
  FROM llm_calls c WHERE ${METHOD_STAGE} AND c.error IS NULL GROUP BY ALL)
SELECT acc.run_id, acc.dataset, acc.method, acc.granularity, acc.n, acc.correct, coalesce(cost.cost, 0) AS cost,
       cost.cached_share, cost.batch_share
FROM acc LEFT JOIN cost ON cost.run_id = acc.run_id AND cost.dataset = acc.dataset AND cost.method = acc.method
ORDER BY acc.dataset, acc.method, acc.run_id`;

export async function loadCostPerCorrect(
  store: ResultStore,
  label: (r: SeriesKey) => string,
): Promise<CostPerCorrectRow[]> {
  const rows = await store.query<
    SeriesKey & {
      dataset: string;
      n: number;
      correct: number;
      cost: number;
      cached_share: number | null;
      batch_share: number | null;
    }
  >(SQL);
  return rows.map((r) => ({
    dataset: r.dataset,
    series: label(r),
    n: r.n,
    correct: r.correct,
    accuracy: r.n > 0 ? r.correct / r.n : 0,
    costUsd: r.cost,
    perCorrectUsd: r.correct > 0 ? r.cost / r.correct : null,
    cachedShare: r.cached_share,
    batchShare: r.batch_share,
  }));
}

const pct = (x: number | null): string => (x === null ? '' : `${(x * 100).toFixed(0)}%`);

/** The table, or null when no method has judged answers. */
export function costPerCorrectTable(rows: readonly CostPerCorrectRow[]): string | null {
  if (rows.length === 0) return null;
  const table = new Table({
    head: ['dataset', 'method', 'n', 'correct', 'accuracy', 'method cost', '$ / correct', 'prompt-cached', 'batch'],
    style: { head: [], border: [], compact: true },
  });
  for (const r of rows) {
    table.push([
      r.dataset,
      r.series,
      r.n,
      r.correct.toFixed(1),
      r.accuracy.toFixed(3),
      `$${r.costUsd.toFixed(4)}`,
      r.perCorrectUsd === null ? 'n/a' : `$${r.perCorrectUsd.toFixed(4)}`,
      pct(r.cachedShare),
      pct(r.batchShare),
    ]);
  }
  return [
    "Cost per correct answer — the method's LLM cost (retrieval steps and reader; judge excluded) ÷ questions judged correct (counted questions)",
    table.toString(),
  ].join('\n');
}

export interface CutoffAccuracyRow {
  dataset: string;
  series: string;
  k: number;
  n: number;
  mean: number;
}

export async function loadCutoffAccuracy(
  store: ResultStore,
  label: (r: SeriesKey) => string,
): Promise<CutoffAccuracyRow[]> {
  const rows = await store.query<SeriesKey & { dataset: string; k: number; n: number; mean: number }>(
    `SELECT run_id, dataset, method, granularity, k, n, mean FROM scores_by_type
     WHERE level = 'qa' AND metric = 'accuracy' AND k IS NOT NULL AND adapt_type = 'all' AND native_type = 'all'
     ORDER BY dataset, method, run_id, k`,
  );
  return rows.map((r) => ({ dataset: r.dataset, series: label(r), k: r.k, n: r.n, mean: r.mean }));
}

/** Accuracy by cutoff (`qa.ks`), one row per dataset × method and a column per cutoff; null without cutoff scores. */
export function cutoffAccuracyTable(rows: readonly CutoffAccuracyRow[]): string | null {
  if (rows.length === 0) return null;
  const ks = [...new Set(rows.map((r) => r.k))].sort((a, b) => a - b);
  const byMethod = new Map<string, CutoffAccuracyRow[]>();
  for (const r of rows) {
    const key = `${r.dataset}\t${r.series}`;
    byMethod.set(key, [...(byMethod.get(key) ?? []), r]);
  }
  const table = new Table({
    head: ['dataset', 'method', 'n', ...ks.map((k) => `top ${k}`)],
    style: { head: [], border: [], compact: true },
  });
  for (const [key, list] of byMethod) {
    const [dataset, series] = key.split('\t');
    table.push([
      dataset!,
      series!,
      list[0]!.n,
      ...ks.map((k) => {
        const cell = list.find((r) => r.k === k);
        return cell ? cell.mean.toFixed(3) : '';
      }),
    ]);
  }
  return [
    'QA accuracy by retrieval cutoff (qa.ks: one retrieval, read at each cutoff; counted questions)',
    table.toString(),
  ].join('\n');
}
