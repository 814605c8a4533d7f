/**
 * Results store: one DuckDB file per experiment (docs/design.md §3, §7). Re-exports only.
 *
 * API (the runner, report, notebooks and tests code against this):
 *   openResultStore(path, { readOnly? }) → ResultStore
 *   store.upsertRun(run)           insert a run, or update endedAt/status of an existing one
 *   store.completedKeys(runId)     Set of `${dataset}\t${questionId}\t${method}` already written (see completedKey)
 *   store.writeQuestion(batch)     question gold + retrievals + scores (+ answers, llmCalls) in ONE transaction;
 *                                  the gold row is written once per run+question (a repeat is a no-op)
 *   store.query<T>(sql, params?)   plain row objects ($1… placeholders); BIGINTs as numbers when safe
 *   store.close()
 *   exportResults(path, { format, outDir, tables? }) → written file paths (CSV or Parquet)
 *   readVerdicts(store, { experiment?, dataset?, claim? }) → VerdictRow[] (the `verdicts` table; [] when absent)
 * Calls are serialised through one connection, so callers may write concurrently. The tables and the
 * `scores_by_type` view are documented in README.md beside this file and in schema.ts.
 */
export { openResultStore, type OpenOptions } from './open-store.ts';
export { SCHEMA_VERSION, TABLES, VIEWS, type TableName } from './schema.ts';
export { exportResults, type ExportFormat, type ExportOptions } from './export.ts';
export * from './types.ts';
export {
  refreshStats,
  statsFingerprint,
  loadRunStats,
  loadScoreInputs,
  loadVerdictInput,
  STATS_VERSION,
  type RefreshResult,
} from './stats-tables.ts';
export { readFindings, readVerdicts, loadPlanRunInputs, type VerdictFilter } from './verdicts-table.ts';
export type { FindingRow, VerdictRow } from '../eval/verdicts/index.ts';
