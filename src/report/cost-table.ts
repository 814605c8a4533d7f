/**
 * Latency / tokens / cost per dataset × method × stage stage `retrieval` from `retrievals.latency_ms`
 * (the method's own run, including any LLM steps it makes), and every `llm_calls.stage` (reader, judge,
 * strategy.*…). Percentiles are DuckDB's `quantile_cont` (linear interpolation, numpy's default). Cache hits are
 * real rows with their own tiny latency, so a rerun served from the cache shows low latency and a high hit share.
 * Two costs (src/llm/client.ts records a hit with the original call's cost): `cost` sums every call — what the
 * method costs, stable across reruns — and `spent` sums uncached calls only — the money this file actually cost.
 * `prompt-cached` is the share of prompt tokens the provider served from its prompt cache (priced at
 * `cachedInputPerMTok`), `batch` the share of calls answered through the Batch API (priced at the batch price).
 */
import Table from 'cli-table3';
import type { ResultStore } from '../store/index.ts';
import type { SeriesKey } from './series-label.ts';

export interface StageCostRow {
  dataset: string;
  series: string;
  stage: string;
  calls: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  /** Null for the retrieval stage (no tokens). */
  meanPromptTokens: number | null;
  meanCompletionTokens: number | null;
  cacheHitShare: number | null;
  costUsd: number | null;
  spentUsd: number | null;
  /** Share of prompt tokens served from the provider's prompt cache; share of calls sent through the Batch API. */
  cachedTokenShare: number | null;
  batchShare: number | null;
  /** Retrieval stage only: mean `answers.context_tokens` (the reader's context) and how many answers it is over. */
  meanContextTokens: number | null;
}

interface Row extends SeriesKey {
  dataset: string;
  stage: string;
  calls: number;
  errors: number;
  p50: number;
  p95: number;
  prompt: number | null;
  completion: number | null;
  hits: number | null;
  cost: number | null;
  spent: number | null;
  cached_share: number | null;
  batch_share: number | null;
  context: number | null;
}

// llm_calls has no granularity: it comes from the retrieval row of the same (run, dataset, question, method), so
// the labels match the other tables.
const SQL = `
WITH ctx AS (
  SELECT run_id, dataset, method, avg(context_tokens) AS context FROM answers GROUP BY ALL),
ret AS (
  SELECT r.run_id, r.dataset, r.method, r.granularity, 'retrieval' AS stage, count(*) AS calls,
         count(r.error) AS errors, quantile_cont(r.latency_ms, 0.5) AS p50, quantile_cont(r.latency_ms, 0.95) AS p95,
         NULL::DOUBLE AS prompt, NULL::DOUBLE AS completion, NULL::DOUBLE AS hits, NULL::DOUBLE AS cost,
         NULL::DOUBLE AS spent, NULL::DOUBLE AS cached_share, NULL::DOUBLE AS batch_share, any_value(ctx.context) AS context
  FROM retrievals r LEFT JOIN ctx ON ctx.run_id = r.run_id AND ctx.dataset = r.dataset AND ctx.method = r.method
  GROUP BY r.run_id, r.dataset, r.method, r.granularity),
llm AS (
  SELECT c.run_id, c.dataset, c.method, coalesce(any_value(r.granularity), '') AS granularity, c.stage,
         count(*) AS calls, count(c.error) AS errors,
         quantile_cont(c.latency_ms, 0.5) AS p50, quantile_cont(c.latency_ms, 0.95) AS p95,
         avg(c.prompt_tokens) AS prompt, avg(c.completion_tokens) AS completion, avg(c.cached::INT) AS hits,
         sum(c.cost_usd) AS cost, coalesce(sum(c.cost_usd) FILTER (WHERE NOT c.cached), 0) AS spent,
         sum(c.cached_tokens)::DOUBLE / nullif(sum(c.prompt_tokens), 0) AS cached_share, avg(c.batch::INT) AS batch_share,
         NULL::DOUBLE AS context
  FROM llm_calls c
  LEFT JOIN retrievals r ON r.run_id = c.run_id AND r.dataset = c.dataset AND r.question_id = c.question_id AND r.method = c.method
  GROUP BY c.run_id, c.dataset, c.method, c.stage)
SELECT * FROM (SELECT * FROM ret UNION ALL SELECT * FROM llm)
ORDER BY dataset, method, run_id, stage <> 'retrieval', stage`;

export async function loadStageCosts(store: ResultStore, label: (r: SeriesKey) => string): Promise<StageCostRow[]> {
  const rows = await store.query<Row>(SQL);
  return rows.map((r) => ({
    dataset: r.dataset,
    series: label(r),
    stage: r.stage,
    calls: r.calls,
    errors: r.errors,
    p50Ms: r.p50,
    p95Ms: r.p95,
    meanPromptTokens: r.prompt,
    meanCompletionTokens: r.completion,
    cacheHitShare: r.hits,
    costUsd: r.cost,
    spentUsd: r.spent,
    cachedTokenShare: r.cached_share,
    batchShare: r.batch_share,
    meanContextTokens: r.context,
  }));
}

const fixed = (x: number | null, digits: number): string => (x === null ? '' : x.toFixed(digits));
const usd = (x: number | null): string => (x === null ? '' : `$${x.toFixed(4)}`);
const share = (x: number | null): string => (x === null ? '' : `${(x * 100).toFixed(0)}%`);

/** The table, or null when the file has no LLM calls (a retrieval-only file keeps its report as before). */
export function stageCostTable(rows: readonly StageCostRow[]): string | null {
  if (!rows.some((r) => r.stage !== 'retrieval')) return null;
  const head = [
    'dataset',
    'method',
    'stage',
    'calls',
    'errors',
    'p50 ms',
    'p95 ms',
    'prompt tok',
    'compl. tok',
    'cache hits',
    'prompt-cached',
    'batch',
    'cost',
    'spent',
    'reader ctx tok',
  ];
  const table = new Table({ head, style: { head: [], border: [], compact: true } });
  for (const r of rows) {
    table.push([
      r.dataset,
      r.series,
      r.stage,
      r.calls,
      r.errors || '',
      fixed(r.p50Ms, 1),
      fixed(r.p95Ms, 1),
      fixed(r.meanPromptTokens, 0),
      fixed(r.meanCompletionTokens, 0),
      share(r.cacheHitShare),
      share(r.cachedTokenShare),
      share(r.batchShare),
      usd(r.costUsd),
      usd(r.spentUsd),
      fixed(r.meanContextTokens, 0),
    ]);
  }
  const cost = rows.reduce((s, r) => s + (r.costUsd ?? 0), 0);
  const spent = rows.reduce((s, r) => s + (r.spentUsd ?? 0), 0);
  return [
    'Latency, tokens and cost per stage — latency p50/p95 over all calls (cache hits included); tokens are means per call; ' +
      'cache hits = replies from the LLM cache, prompt-cached = prompt tokens the provider cached, batch = calls via the Batch API',
    table.toString(),
    `cost = all calls at the price table (what the methods cost, stable across reruns): $${cost.toFixed(4)}; ` +
      `spent = uncached calls only (money this file actually cost): $${spent.toFixed(4)}`,
  ].join('\n');
}
