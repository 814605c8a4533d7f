/** QA evaluation: reader, LLM judges (LongMemEval, LoCoMo/Mem0), answer metrics (F1, BLEU-1), aggregation. */
export * from './config.ts';
export * from './aggregate.ts';
export * from './answer-metrics.ts';
export * from './judge-locomo.ts';
export * from './judge-longmemeval.ts';
export * from './nltk-tokenize.ts';
export * from './porter-stemmer.ts';
export * from './reader.ts';
export * from './verdict.ts';
export * from './score-answer.ts';
export * from './answer-question.ts';
