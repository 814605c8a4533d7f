/**
 * How each table's rows become appender cells: the column types in table order and a function per row kind. The
 * appender is DuckDB's bulk path (DESIGN.md §7); it takes values positionally, so the order here must match the
 * CREATE TABLE statements in schema.ts (the store test reads every column back to catch a mismatch).
 */
import type { ComparisonRow, ScoreCiRow } from '../eval/stats/results/index.ts';
import type { AnswerRow, CutoffAnswerRow, LlmCallRow, QuestionRow, RetrievalRow, ScoreRow } from './types.ts';

/** varchar · boolean · double · integer · varchar list · double list. */
export type CellType = 'v' | 'b' | 'd' | 'i' | 'vl' | 'dl';
export type Cell = string | number | boolean | null | readonly string[] | readonly number[];

export interface TableCells<R> {
  table: 'questions' | 'retrievals' | 'scores' | 'answers' | 'cutoff_answers' | 'llm_calls' | 'score_cis' | 'comparisons';
  types: readonly CellType[];
  cells(runId: string, row: R): Cell[];
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

export const questionCells: TableCells<QuestionRow> = {
  table: 'questions',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'v', 'b', 'vl', 'vl', 'v'],
  cells: (runId, q) => [
    runId, q.dataset, q.questionId, q.text, q.askedAt, q.nativeType, q.adaptType, q.isAbstention,
    q.evidenceSessionIds, q.evidenceTurnIds, q.answer,
  ],
};

export const retrievalCells: TableCells<RetrievalRow> = {
  table: 'retrievals',
  types: ['v', 'v', 'v', 'v', 'v', 'vl', 'vl', 'dl', 'b', 'v', 'd', 'v', 'v', 'v', 'v', 'v', 'i'],
  cells: (runId, r) => [
    runId, r.dataset, r.questionId, r.method, r.granularity, r.unitIds, r.unitSessionIds, r.scores, r.noMemory,
    r.context, r.latencyMs, r.predictedType, json(r.typeProbs), r.route, json(r.notes), r.error, r.k ?? null,
  ],
};

export const scoreCells: TableCells<ScoreRow> = {
  table: 'scores',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'v', 'i', 'd', 'b', 'v'],
  cells: (runId, s) => [
    runId, s.dataset, s.questionId, s.method, s.granularity, s.level, s.metric, s.k, s.value, s.counted, s.excludedWhy,
  ],
};

export const answerCells: TableCells<AnswerRow> = {
  table: 'answers',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'v'],
  cells: (runId, a) => [
    runId, a.dataset, a.questionId, a.method, a.answer, JSON.stringify(a.judgeVerdicts), a.contextTokens, a.error,
  ],
};

export const cutoffAnswerCells: TableCells<CutoffAnswerRow> = {
  table: 'cutoff_answers',
  types: ['v', 'v', 'v', 'v', 'i', 'v', 'v', 'i', 'v'],
  cells: (runId, a) => [
    runId, a.dataset, a.questionId, a.method, a.cutoff, a.answer, JSON.stringify(a.judgeVerdicts), a.contextTokens, a.error,
  ],
};

export const llmCallCells: TableCells<LlmCallRow> = {
  table: 'llm_calls',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'i', 'd', 'b', 'd', 'v', 'b', 'i'],
  cells: (runId, c) => [
    runId, c.dataset, c.questionId, c.method, c.stage, c.model, c.promptTokens, c.completionTokens, c.latencyMs,
    c.cached, c.costUsd, c.error ?? null, c.batch === true, c.cachedTokens ?? 0,
  ],
};

/** Statistics rows carry their own run id; the `runId` argument is ignored. */
export const scoreCiCells: TableCells<ScoreCiRow> = {
  table: 'score_cis',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'v', 'v', 'i', 'd', 'd', 'd', 'v', 'v', 'i', 'i'],
  cells: (_runId, r) => [
    r.runId, r.dataset, r.method, r.granularity, r.level, r.metric, r.k, r.adaptType, r.nativeType, r.n, r.mean,
    r.ciLow, r.ciHigh, r.ciMethod, r.bootstrap, r.units, r.resamples,
  ],
};

export const comparisonCells: TableCells<ComparisonRow> = {
  table: 'comparisons',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'v', 'i', 'd', 'd', 'd', 'd', 'd', 'v', 'v', 'i', 'v', 'v', 'v', 'i'],
  cells: (_runId, r) => [
    r.run, r.dataset, r.methodA, r.methodB, r.level, r.metric, r.k, r.adaptType, r.nPairs, r.meanDiff, r.ciLow, r.ciHigh,
    r.pValue, r.pHolm, r.test, r.family, r.nExcluded, r.runB, r.ciMethod, r.bootstrap, r.resamples,
  ],
};
