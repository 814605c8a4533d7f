/**
 * Memorising vs answering time per question, per dataset and method, from a results file: methods that memorise
 * once per haystack (longmemeval-rag, a-mem, …) record the time they spent building or waiting for their memory as
 * `notes.memoriseMs` on each question's retrieval row; the rest of `latency_ms` is answering. Prints a Markdown
 * table: memorising time summed and divided by the questions (amortised per question), answering mean and median.
 *
 * Usage: npx tsx scripts/memorise-time.ts results/baselines-offline.duckdb
 */
import { openResultStore } from '../src/store/index.ts';

const path = process.argv[2];
if (!path) {
  console.error('usage: memorise-time.ts <results.duckdb>');
  process.exit(2);
}
const store = await openResultStore(path, { readOnly: true });
try {
  const rows = await store.query<{
    dataset: string;
    method: string;
    n: number;
    mem_q: number;
    ans_mean: number;
    ans_median: number;
    mem_total_s: number;
  }>(`
    WITH t AS (
      SELECT dataset, method, latency_ms, COALESCE(TRY_CAST(json_extract_string(notes, '$.memoriseMs') AS DOUBLE), 0) AS mem
      FROM retrievals WHERE error IS NULL)
    SELECT dataset, method, count(*) AS n, sum(mem) / count(*) AS mem_q, avg(latency_ms - mem) AS ans_mean,
      median(latency_ms - mem) AS ans_median, sum(mem) / 1000 AS mem_total_s
    FROM t GROUP BY ALL ORDER BY dataset, method`);
  console.log(
    '| dataset | method | questions | memorise ms / question | answer ms mean | answer ms median | memorise total s |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.dataset} | ${r.method} | ${r.n} | ${r.mem_q.toFixed(2)} | ${r.ans_mean.toFixed(2)} | ${r.ans_median.toFixed(2)} | ${r.mem_total_s.toFixed(2)} |`,
    );
  }
} finally {
  await store.close();
}
