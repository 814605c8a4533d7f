/**
 * How each table's rows become appender cells: the column types in table order and a function per row kind. The
 * appender is DuckDB's bulk path (docs/design.md §7); it takes values positionally, so the order here must match the
 * CREATE TABLE statements in schema.ts (the store test reads every column back to catch a mismatch).
 */
import type { ComparisonRow, ScoreCiRow } from '../eval/stats/results/index.ts';
import type { JudgeAgreementRow, JudgeComparisonRow } from '../eval/qa/agreement/index.ts';
import type { FindingRow, VerdictRow } from '../eval/verdicts/index.ts';
import type {
  AnswerRow,
  AnswerVerdictRow,
  CutoffAnswerRow,
  GoldVersionRow,
  LlmCallRow,
  ProbeAnswerRow,
  QuestionRow,
  RetrievalRow,
  ScoreRow,
} from './types.ts';

/** varchar · boolean · double · integer · varchar list · double list · boolean list. */
export type CellType = 'v' | 'b' | 'd' | 'i' | 'vl' | 'dl' | 'bl';
export type Cell = string | number | boolean | null | readonly string[] | readonly number[] | readonly boolean[];

export interface TableCells<R> {
  table:
    | 'questions'
    | 'retrievals'
    | 'scores'
    | 'answers'
    | 'cutoff_answers'
    | 'llm_calls'
    | 'score_cis'
    | 'comparisons'
    | 'verdicts'
    | 'findings'
    | 'answer_verdicts'
    | 'probe_answers'
    | 'gold_versions'
    | 'judge_agreement'
    | 'judge_comparisons';
  types: readonly CellType[];
  cells(runId: string, row: R): Cell[];
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

export const questionCells: TableCells<QuestionRow> = {
  table: 'questions',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'v', 'b', 'vl', 'vl', 'v', 'vl', 'vl', 'i', 'i', 'v'],
  cells: (runId, q) => [
    runId,
    q.dataset,
    q.questionId,
    q.text,
    q.askedAt,
    q.nativeType,
    q.adaptType,
    q.isAbstention,
    q.evidenceSessionIds,
    q.evidenceTurnIds,
    q.answer,
    q.supersededSessionIds ?? [],
    q.supersededTurnIds ?? [],
    q.haystackSessions ?? null,
    q.haystackTurns ?? null,
    q.judgeEvidence ?? null,
  ],
};

export const retrievalCells: TableCells<RetrievalRow> = {
  table: 'retrievals',
  types: ['v', 'v', 'v', 'v', 'v', 'vl', 'vl', 'dl', 'b', 'v', 'd', 'v', 'v', 'v', 'v', 'v', 'i'],
  cells: (runId, r) => [
    runId,
    r.dataset,
    r.questionId,
    r.method,
    r.granularity,
    r.unitIds,
    r.unitSessionIds,
    r.scores,
    r.noMemory,
    r.context,
    r.latencyMs,
    r.predictedType,
    json(r.typeProbs),
    r.route,
    json(r.notes),
    r.error,
    r.k ?? null,
  ],
};

export const scoreCells: TableCells<ScoreRow> = {
  table: 'scores',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'v', 'i', 'd', 'b', 'v'],
  cells: (runId, s) => [
    runId,
    s.dataset,
    s.questionId,
    s.method,
    s.granularity,
    s.level,
    s.metric,
    s.k,
    s.value,
    s.counted,
    s.excludedWhy,
  ],
};

export const answerCells: TableCells<AnswerRow> = {
  table: 'answers',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'v', 'i'],
  cells: (runId, a) => [
    runId,
    a.dataset,
    a.questionId,
    a.method,
    a.answer,
    JSON.stringify(a.judgeVerdicts),
    a.contextTokens,
    a.error,
    a.answerTokens ?? null,
  ],
};

export const answerVerdictCells: TableCells<AnswerVerdictRow> = {
  table: 'answer_verdicts',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'v', 'bl', 'vl'],
  cells: (runId, v) => [
    runId,
    v.dataset,
    v.questionId,
    v.method,
    v.probe,
    v.judge,
    v.gold,
    v.model,
    v.prompt,
    v.correct,
    v.raw,
  ],
};

export const probeAnswerCells: TableCells<ProbeAnswerRow> = {
  table: 'probe_answers',
  types: ['v', 'v', 'v', 'v', 'v', 'v'],
  cells: (runId, p) => [runId, p.dataset, p.questionId, p.probe, p.source, p.answer],
};

export const goldVersionCells: TableCells<GoldVersionRow> = {
  table: 'gold_versions',
  types: ['v', 'v', 'v', 'v', 'v', 'v'],
  cells: (runId, g) => [runId, g.dataset, g.questionId, g.version, g.answer, g.note],
};

/** Derived rows; the `runId` argument is ignored. */
export const judgeAgreementCells: TableCells<JudgeAgreementRow> = {
  table: 'judge_agreement',
  types: ['v', 'v', 'v', 'v', 'i', 'd', 'd'],
  cells: (_runId, r) => [r.dataset, r.judgeA, r.judgeB, r.adaptType, r.n, r.agreement, r.kappa],
};

export const judgeComparisonCells: TableCells<JudgeComparisonRow> = {
  table: 'judge_comparisons',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'd', 'd', 'd', 'd', 'd', 'v', 'v'],
  cells: (_runId, r) => [
    r.judge,
    r.run,
    r.dataset,
    r.methodA,
    r.methodB,
    r.adaptType,
    r.nPairs,
    r.meanDiff,
    r.ciLow,
    r.ciHigh,
    r.pValue,
    r.pHolm,
    r.test,
    r.runB,
  ],
};

export const cutoffAnswerCells: TableCells<CutoffAnswerRow> = {
  table: 'cutoff_answers',
  types: ['v', 'v', 'v', 'v', 'i', 'v', 'v', 'i', 'v'],
  cells: (runId, a) => [
    runId,
    a.dataset,
    a.questionId,
    a.method,
    a.cutoff,
    a.answer,
    JSON.stringify(a.judgeVerdicts),
    a.contextTokens,
    a.error,
  ],
};

export const llmCallCells: TableCells<LlmCallRow> = {
  table: 'llm_calls',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'i', 'd', 'b', 'd', 'v', 'b', 'i'],
  cells: (runId, c) => [
    runId,
    c.dataset,
    c.questionId,
    c.method,
    c.stage,
    c.model,
    c.promptTokens,
    c.completionTokens,
    c.latencyMs,
    c.cached,
    c.costUsd,
    c.error ?? null,
    c.batch === true,
    c.cachedTokens ?? 0,
  ],
};

/** Statistics rows carry their own run id; the `runId` argument is ignored. */
export const scoreCiCells: TableCells<ScoreCiRow> = {
  table: 'score_cis',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'v', 'v', 'i', 'd', 'd', 'd', 'v', 'v', 'i', 'i'],
  cells: (_runId, r) => [
    r.runId,
    r.dataset,
    r.method,
    r.granularity,
    r.level,
    r.metric,
    r.k,
    r.adaptType,
    r.nativeType,
    r.n,
    r.mean,
    r.ciLow,
    r.ciHigh,
    r.ciMethod,
    r.bootstrap,
    r.units,
    r.resamples,
  ],
};

export const comparisonCells: TableCells<ComparisonRow> = {
  table: 'comparisons',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'i', 'v', 'i', 'd', 'd', 'd', 'd', 'd', 'v', 'v', 'i', 'v', 'v', 'v', 'i', 'i'],
  cells: (_runId, r) => [
    r.run,
    r.dataset,
    r.methodA,
    r.methodB,
    r.level,
    r.metric,
    r.k,
    r.adaptType,
    r.nPairs,
    r.meanDiff,
    r.ciLow,
    r.ciHigh,
    r.pValue,
    r.pHolm,
    r.test,
    r.family,
    r.nExcluded,
    r.runB,
    r.ciMethod,
    r.bootstrap,
    r.resamples,
    r.familySize,
  ],
};

export const verdictCells: TableCells<VerdictRow> = {
  table: 'verdicts',
  types: ['v', 'v', 'v', 'v', 'v', 'v', 'v', 'i', 'v', 'i', 'd', 'd', 'd', 'd', 'd', 'v', 'i', 'd', 'v', 'v', 'v'],
  cells: (_runId, r) => [
    r.experiment,
    r.dataset,
    r.claim,
    r.methodA,
    r.methodB,
    r.metric,
    r.level,
    r.k,
    r.adaptType,
    r.n,
    r.estimate,
    r.ciLow,
    r.ciHigh,
    r.pValue,
    r.pHolm,
    r.family,
    r.familySize,
    r.mde,
    r.verdict,
    r.reason,
    r.flags,
  ],
};

export const findingCells: TableCells<FindingRow> = {
  table: 'findings',
  types: ['v', 'v', 'v', 'v'],
  cells: (_runId, r) => [r.experiment, r.dataset, r.finding, r.supportingClaims],
};
