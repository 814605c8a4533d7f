/**
 * The evaluation layer's retrieval part: the gold units of a question and the retrieval metrics. The rest of the layer
 * is imported from its own folders: qa/ (reader, judges, answer metrics), stats/ (CIs, paired tests), verdicts/ (the
 * plan's verdicts), analysis/ (best strategy per type, the seeded split).
 */
export {
  deriveRetrievalGold,
  GOLD_MODES,
  indexedTurns,
  type GoldMode,
  type RetrievalGold,
  type UnitRef,
} from './retrieval-gold.ts';
export {
  averageRetrieval,
  dcg,
  evaluateRetrieval,
  ndcgAny,
  OFFICIAL_KS,
  precision,
  recallAll,
  recallAny,
  RETRIEVAL_METRICS,
  turnToSessionRanking,
  type AveragedMetric,
  type LevelVerdict,
  type RetrievalEval,
  type RetrievalEvalInput,
  type RetrievalLevel,
  type RetrievalMetric,
  type RetrievalMetricRow,
  type SessionRanking,
  type SkipReason,
} from './retrieval-metrics.ts';
