/**
 * The project's own tables in a bundle: each a Parquet file written by DuckDB (`COPY … TO … (FORMAT parquet)`,
 * through the results store's connection: only src/store opens DuckDB), rows in a fixed order (`ORDER BY ALL`) so
 * the same rows give the same bytes, and read back in file order for `adaptmr verify` and `bundle --import`.
 * Row tables are what the statistics are computed from; derived tables are what `verify` recomputes and compares.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultStore } from '../../store/index.ts';

/** The rows a run wrote (the instance-level truth). */
export const ROW_TABLES = [
  'runs',
  'methods',
  'questions',
  'retrievals',
  'scores',
  'answers',
  'cutoff_answers',
  'answer_verdicts',
  'probe_answers',
  'gold_versions',
  'llm_calls',
  'checkpoints',
] as const;

/** Computed from the rows (src/store/stats-tables.ts), recomputed by `verify`. */
export const DERIVED_TABLES = ['score_cis', 'comparisons', 'verdicts', 'judge_agreement', 'judge_comparisons'] as const;

/** Cost per run, dataset, method, stage and model: a view of llm_calls, recomputed by `verify`. */
export const COST_SQL = `SELECT run_id, dataset, method, stage, model, count(*)::BIGINT AS calls,
  sum(prompt_tokens)::BIGINT AS prompt_tokens, sum(completion_tokens)::BIGINT AS completion_tokens,
  sum(cached_tokens)::BIGINT AS cached_tokens, sum(cost_usd ORDER BY question_id, latency_ms, cost_usd) AS cost_usd
  FROM llm_calls GROUP BY ALL`;

export const TABLE_DIR = 'tables';
export const tableFile = (table: string): string => `${TABLE_DIR}/${table}.parquet`;
const literal = (path: string): string => `'${path.replaceAll("'", "''")}'`;

/** Writes every row table, derived table and the cost table into `<dir>/tables/`; returns the bundle paths. */
export async function writeTables(store: ResultStore, dir: string): Promise<string[]> {
  const out: string[] = [];
  mkdirSync(join(dir, TABLE_DIR), { recursive: true });
  const sources: [string, string][] = [
    ...[...ROW_TABLES, ...DERIVED_TABLES].map((t): [string, string] => [t, `SELECT * FROM ${t}`]),
    ['cost', COST_SQL],
  ];
  for (const [name, sql] of sources) {
    const rel = tableFile(name);
    await store.query(`COPY (${sql} ORDER BY ALL) TO ${literal(join(dir, rel))} (FORMAT parquet)`);
    out.push(rel);
  }
  return out;
}

/** A Parquet file's rows in file order. */
export async function readParquet<T = Record<string, unknown>>(store: ResultStore, file: string): Promise<T[]> {
  return store.query<T>(`SELECT * FROM read_parquet(${literal(file)})`);
}

/** Fills a fresh results file's row tables from a bundle's Parquet files (verify's recomputation, import). */
export async function loadRowTables(store: ResultStore, dir: string): Promise<void> {
  for (const t of ROW_TABLES) {
    await store.query(`INSERT INTO ${t} SELECT * FROM read_parquet(${literal(join(dir, tableFile(t)))})`);
  }
}
