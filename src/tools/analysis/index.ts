/** Re-exports of the result analyses: best-strategy-per-type upper bound, abstention precision / recall. */
export { splitQuestions, splitKey, type SplitQuestion, type SplitHalf } from './split.ts';
export { bestStrategyPerType, UPPER_BOUND_LABEL, type BestStrategyInput, type BestStrategyRow, type QuestionScore } from './best-strategy.ts';
export { abstentionScores, type AbstentionDecisionRow, type AbstentionScore } from './abstention.ts';
export { analyzeBestStrategy, analyzeAbstention, BEST_STRATEGY_DEFAULTS, type BestStrategyOptions } from './run-analysis.ts';
export { formatBestStrategy, formatAbstention } from './format.ts';
