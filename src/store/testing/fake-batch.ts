/**
 * Builds synthetic but well-formed question batches for tests, the kill/resume check and the store benchmark:
 * deterministic values from the question index, the LongMemEval retrieval metric grid (3 metrics × 6 k × 2 levels)
 * plus one QA metric with k = NULL. Not used by the harness itself (a test fixture: testing/ is not shipped).
 */
import type { QuestionBatch, RetrievalRow, ScoreRow } from '../types.ts';

export const FAKE_KS = [1, 3, 5, 10, 30, 50] as const;
export const FAKE_METRICS = ['recall_any', 'recall_all', 'ndcg_any'] as const;
const TYPES = [
  ['factual', 'single-session-user'],
  ['temporal', 'temporal-reasoning'],
  ['update', 'knowledge-update'],
  ['multi-hop', 'multi-session'],
] as const;

/** Score rows per method in a fake batch. */
export const FAKE_SCORES_PER_METHOD = FAKE_METRICS.length * FAKE_KS.length * 2 + 1;

function retrieval(dataset: string, questionId: string, method: string, i: number): RetrievalRow {
  const unitIds = Array.from({ length: 10 }, (_, j) => `s${(i + j) % 7}#${j + 1}`);
  return {
    dataset,
    questionId,
    method,
    granularity: 'turn',
    unitIds,
    unitSessionIds: unitIds.map((u) => u.split('#')[0] ?? u),
    scores: unitIds.map((_, j) => 1 / (j + 1)),
    noMemory: false,
    context: `context of ${questionId}`,
    latencyMs: 3.5,
    predictedType: 'factual',
    typeProbs: { factual: 0.7, temporal: 0.3 },
    route: 'factual',
    notes: { i },
    error: null,
  };
}

function scores(dataset: string, questionId: string, method: string, i: number): ScoreRow[] {
  const base = { dataset, questionId, method, granularity: 'turn', counted: true, excludedWhy: null };
  const rows: ScoreRow[] = [];
  for (const level of ['session', 'turn'] as const) {
    for (const metric of FAKE_METRICS) {
      for (const k of FAKE_KS) rows.push({ ...base, level, metric, k, value: (i + k) % 2 });
    }
  }
  rows.push({ ...base, level: 'qa', metric: 'f1', k: null, value: 0.5 });
  return rows;
}

/** The batch of question number `i` (ids `q<i>`) answered by every method in `methods`. */
export function fakeBatch(runId: string, i: number, methods: readonly string[], dataset = 'fake'): QuestionBatch {
  const questionId = `q${i}`;
  const [adaptType, nativeType] = TYPES[i % TYPES.length] ?? TYPES[0];
  return {
    runId,
    question: {
      dataset,
      questionId,
      text: `question ${i}?`,
      askedAt: '2023-05-20T02:21:00Z',
      nativeType,
      adaptType,
      isAbstention: false,
      evidenceSessionIds: [`s${i % 7}`],
      evidenceTurnIds: [`s${i % 7}#1`],
      answer: `answer ${i}`,
    },
    retrievals: methods.map((m) => retrieval(dataset, questionId, m, i)),
    scores: methods.flatMap((m) => scores(dataset, questionId, m, i)),
  };
}
