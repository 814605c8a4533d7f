/**
 * Writes classifier evaluations to a DuckDB file (default `results/classifier-eval.duckdb`), separate from run
 * result files: `classifier_eval` (one row per evaluation: accuracy, macro-F1, abstention visibility, latency
 * p50/p95), `classifier_type_scores` (per-type P/R/F1), `classifier_confusion` (gold × predicted counts) and
 * `classifier_predictions` (one row per question with probabilities, source and latency_ms). One evaluation is
 * written in one transaction. Rows are appended, never replaced: `eval_id` tells evaluations apart.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { InputError, errorMessage } from '../core/errors.ts';
import { ADAPT_TYPES } from '../core/types.ts';
import type { EvalResult } from '../tools/classifier/eval/evaluate.ts';

export const CLASSIFIER_EVAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS classifier_eval (
  eval_id VARCHAR PRIMARY KEY, created_at VARCHAR, classifier VARCHAR, label VARCHAR, upper_bound BOOLEAN,
  dataset VARCHAR, protocol VARCHAR, train_dataset VARCHAR, folds INTEGER, seed INTEGER, n INTEGER,
  accuracy DOUBLE, macro_f1 DOUBLE, accuracy_without_abstention DOUBLE, macro_f1_without_abstention DOUBLE,
  abstention_n INTEGER, abstention_flagged INTEGER, abstention_with_surface_cue INTEGER, abstention_cue_on_others INTEGER,
  latency_p50_ms DOUBLE, latency_p95_ms DOUBLE, latency_mean_ms DOUBLE,
  routed_rules INTEGER, routed_llm INTEGER, sources VARCHAR);
CREATE TABLE IF NOT EXISTS classifier_type_scores (
  eval_id VARCHAR, type VARCHAR, precision DOUBLE, recall DOUBLE, f1 DOUBLE, support INTEGER, predicted INTEGER);
CREATE TABLE IF NOT EXISTS classifier_confusion (
  eval_id VARCHAR, gold VARCHAR, predicted VARCHAR, count INTEGER);
CREATE TABLE IF NOT EXISTS classifier_predictions (
  eval_id VARCHAR, question_id VARCHAR, dataset VARCHAR, fold INTEGER, gold VARCHAR, native_type VARCHAR,
  is_abstention BOOLEAN, predicted VARCHAR, p_factual DOUBLE, p_temporal DOUBLE, p_update DOUBLE, p_multi_hop DOUBLE,
  p_abstention DOUBLE, source VARCHAR, route VARCHAR, latency_ms DOUBLE);
`;

type Cell = string | number | boolean | null;

function appendRow(a: DuckDBAppender, cells: Cell[], kinds: string): void {
  cells.forEach((c, i) => {
    if (c === null || (typeof c === 'number' && Number.isNaN(c))) a.appendNull();
    else if (kinds[i] === 'i') a.appendInteger(Number(c));
    else if (kinds[i] === 'd') a.appendDouble(Number(c));
    else if (kinds[i] === 'b') a.appendBoolean(c === true);
    else a.appendVarchar(String(c));
  });
  a.endRow();
}

async function append(conn: DuckDBConnection, table: string, kinds: string, rows: Cell[][]): Promise<void> {
  const a = await conn.createAppender(table);
  try {
    for (const r of rows) appendRow(a, r, kinds);
    a.flushSync();
  } finally {
    a.closeSync();
  }
}

export async function writeEvalResults(file: string, results: readonly EvalResult[]): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file);
  } catch (err) {
    throw new InputError(`cannot open DuckDB file: ${errorMessage(err)}`, file);
  }
  const conn = await instance.connect();
  try {
    await conn.run(CLASSIFIER_EVAL_SCHEMA);
    for (const r of results) {
      await conn.run('BEGIN');
      try {
        await append(conn, 'classifier_eval', 'vvvvbvvviiiddddiiiidddiiv', [
          [
            r.evalId, r.createdAt, r.classifier, r.label, r.upperBound, r.dataset, r.protocol, r.trainDataset, r.folds, r.seed, r.metrics.n,
            r.metrics.accuracy, r.metrics.macroF1, r.withoutAbstention.accuracy, r.withoutAbstention.macroF1,
            r.abstention.n, r.abstention.flagged, r.abstention.withSurfaceCue, r.abstention.cueOnOthers,
            r.latency.p50Ms, r.latency.p95Ms, r.latency.meanMs, r.routes?.rules ?? null, r.routes?.llm ?? null, JSON.stringify(r.sources),
          ],
        ]);
        await append(
          conn,
          'classifier_type_scores',
          'vvdddii',
          ADAPT_TYPES.map((t) => {
            const s = r.metrics.perType[t];
            return [r.evalId, t, s.precision, s.recall, s.f1, s.support, s.predicted];
          }),
        );
        await append(conn, 'classifier_confusion', 'vvvi', ADAPT_TYPES.flatMap((g) => ADAPT_TYPES.map((p) => [r.evalId, g, p, r.metrics.confusion[g][p]])));
        await append(
          conn,
          'classifier_predictions',
          'vvvivvbvdddddvvd',
          r.predictions.map((p) => [
            r.evalId, p.questionId, p.dataset, p.fold, p.gold, p.nativeType, p.isAbstention, p.predicted,
            p.probs.factual, p.probs.temporal, p.probs.update, p.probs['multi-hop'], p.probs.abstention, p.source, p.route, p.latencyMs,
          ]),
        );
        await conn.run('COMMIT');
      } catch (err) {
        await conn.run('ROLLBACK');
        throw err;
      }
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
