/**
 * A small results file for statistics tests: two datasets (`plain`: one question per unit; `convs`: LoCoMo-style
 * ids, four conversations), methods `base` (unified-embedding, the default reference) and `better` (errors on one
 * question), binary recall_any and continuous ndcg_any at k = 5.
 */
import type { QuestionBatch, ResultStore, ScoreRow } from '../types.ts';

export const RUN = 'exp-000000000000';
const config = (stats: object = {}) =>
  JSON.stringify({
    name: 'exp',
    seed: 42,
    methods: [
      { id: 'base', method: 'unified-embedding' },
      { id: 'better', method: 'adaptmr' },
    ],
    stats,
  });

/** Question i: `better` recalls when i % 4 != 0, `base` when i % 2 == 0; ndcg continuous; `better` errors on i = 7. */
function batch(dataset: string, id: string, i: number): QuestionBatch {
  const score = (method: string, metric: string, value: number): ScoreRow => ({
    dataset,
    questionId: id,
    method,
    granularity: 'session',
    level: 'session',
    metric,
    k: 5,
    value,
    counted: true,
    excludedWhy: null,
  });
  const rows: ScoreRow[] = [score('base', 'recall_any', i % 2 === 0 ? 1 : 0), score('base', 'ndcg_any', (i % 5) / 5)];
  if (i !== 7)
    rows.push(
      score('better', 'recall_any', i % 4 === 0 ? 0 : 1),
      score('better', 'ndcg_any', Math.min(1, (i % 5) / 5 + 0.15)),
    );
  const retrieval = (method: string, error: string | null) => ({
    dataset,
    questionId: id,
    method,
    granularity: 'session',
    unitIds: [],
    unitSessionIds: [],
    scores: [],
    noMemory: false,
    context: null,
    latencyMs: 1,
    predictedType: null,
    typeProbs: null,
    route: null,
    notes: null,
    error,
  });
  return {
    runId: RUN,
    question: {
      dataset,
      questionId: id,
      text: 'q?',
      askedAt: '2023-01-01T00:00:00Z',
      nativeType: i % 3 === 0 ? '2' : '4',
      adaptType: i % 3 === 0 ? 'temporal' : 'factual',
      isAbstention: false,
      evidenceSessionIds: [],
      evidenceTurnIds: [],
      answer: 'a',
    },
    retrievals: [retrieval('base', null), retrieval('better', i === 7 ? 'boom' : null)],
    scores: rows,
  };
}

export async function writeStatsFixture(store: ResultStore, stats: object = {}): Promise<void> {
  await store.upsertRun({
    runId: RUN,
    name: 'exp',
    configJson: config(stats),
    configHash: 'h',
    gitCommit: null,
    gitDirty: null,
    packageVersions: {},
    datasetHashes: {},
    seed: 42,
    startedAt: '2026-01-01T00:00:00Z',
    status: 'done',
  });
  for (let i = 0; i < 40; i++) {
    await store.writeQuestion(batch('plain', `q${String(i).padStart(2, '0')}`, i));
    await store.writeQuestion(batch('convs', `conv-${i % 4}:q${i}`, i));
  }
}
