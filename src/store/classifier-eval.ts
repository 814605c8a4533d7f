/**
 * Writes classifier evaluations into a results file (default `results/classifier-eval.duckdb`; the tables are part of
 * the results schema, schema.ts, so one writer and one version check serve runs and evaluations): `classifier_eval` (one row per evaluation: accuracy, macro-F1, abstention visibility, latency
 * p50/p95), `classifier_type_scores` (per-type P/R/F1), `classifier_confusion` (gold × predicted counts) and
 * `classifier_predictions` (one row per question with probabilities, source and latency_ms). One evaluation is
 * written in one transaction. Rows are appended, never replaced: `eval_id` tells evaluations apart. Opening a file
 * to write them: classifier-eval-file.ts (kept apart so the store's own modules import no cycle).
 */
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { ADAPT_TYPES } from '../core/types.ts';
import type { EvalResult } from './classifier-eval-types.ts';

export { CLASSIFIER_EVAL_SCHEMA } from './schema.ts';

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

/** One evaluation's rows (every classifier table), appended on `conn` inside the caller's transaction. */
export async function appendClassifierEval(conn: DuckDBConnection, r: EvalResult): Promise<void> {
  await append(conn, 'classifier_eval', 'vvvvbvvviiiddddiiiidddiiv', [
    [
      r.evalId,
      r.createdAt,
      r.classifier,
      r.label,
      r.upperBound,
      r.dataset,
      r.protocol,
      r.trainDataset,
      r.folds,
      r.seed,
      r.metrics.n,
      r.metrics.accuracy,
      r.metrics.macroF1,
      r.withoutAbstention.accuracy,
      r.withoutAbstention.macroF1,
      r.abstention.n,
      r.abstention.flagged,
      r.abstention.withSurfaceCue,
      r.abstention.cueOnOthers,
      r.latency.p50Ms,
      r.latency.p95Ms,
      r.latency.meanMs,
      r.routes?.rules ?? null,
      r.routes?.llm ?? null,
      JSON.stringify(r.sources),
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
  await append(
    conn,
    'classifier_confusion',
    'vvvi',
    ADAPT_TYPES.flatMap((g) => ADAPT_TYPES.map((p) => [r.evalId, g, p, r.metrics.confusion[g][p]])),
  );
  await append(
    conn,
    'classifier_predictions',
    'vvvivvbvdddddvvd',
    r.predictions.map((p) => [
      r.evalId,
      p.questionId,
      p.dataset,
      p.fold,
      p.gold,
      p.nativeType,
      p.isAbstention,
      p.predicted,
      p.probs.factual,
      p.probs.temporal,
      p.probs.update,
      p.probs['multi-hop'],
      p.probs.abstention,
      p.source,
      p.route,
      p.latencyMs,
    ]),
  );
}
