/**
 * Query-type classifiers (plan §2.2) and their evaluation. Re-exports only.
 *   classifiers: Registry<Classifier, ClassifierDeps>   rules · llm · rules+llm · onnx (no gold anywhere)
 *   createOracleClassifier(goldTypeById) → OracleClassifier   "oracle (upper bound)", the one classifier given gold
 *   trainLinear(examples, opts) → LinearModel; writeLinearModel(model, file); loadOnnxClassifier(path, format)
 *   evaluateClassifier(req) → EvalResult; writeEvalResults(file, results); confusionChartSpec(result)
 */
export { classifiers, OnnxOptionsSchema, RulesLlmOptionsSchema, type ClassifierDeps } from './registry.ts';
export { argmaxType, type Classification, type ProbSource } from './result.ts';
export { labelToType, PROMPT_LABELS } from './labels.ts';
export { RulesClassifier, RulesOptionsSchema, matchCues, ENGLISH_CUES, CHINESE_CUES, type RulesOptions, type RuleMatch } from './rules.ts';
export { RulesLlmClassifier } from './rules-llm.ts';
export { LlmClassifier, LlmClassifierOptionsSchema, type LlmClassifierOptions } from './llm/llm-classifier.ts';
export { PROMPTS, buildPrompt, promptLanguage, type PromptLanguage } from './llm/prompts.ts';
export { readReply, probsFromLogprobs, REPLY_JSON_SCHEMA } from './llm/probabilities.ts';
export { createOracleClassifier, OracleClassifier, ORACLE_LABEL, ORACLE_NAME } from './oracle.ts';
export { DEFAULT_FEATURE_SPEC, featureStrings, sparseFeatures, denseFeatures, fnv1a32, type FeatureSpec } from './onnx/features.ts';
export { trainLinear, predictLinear, DEFAULT_TRAIN_OPTIONS, type LinearModel, type TrainOptions, type LabelledText } from './onnx/train.ts';
export { linearModelToOnnx, writeLinearModel, featureContractText } from './onnx/export.ts';
export { HashedOnnxClassifier, readOnnxMetadata } from './onnx/hashed-classifier.ts';
export { HfOnnxClassifier, isHfLayout } from './onnx/hf-classifier.ts';
export { loadOnnxClassifier, type OnnxFormat } from './onnx/load.ts';
export { labelledQuestions, type LabelledQuestion } from './eval/questions.ts';
export { computeMetrics, percentile, type ClassifierMetrics, type TypeScores } from './eval/metrics.ts';
export { stratifiedFolds } from './eval/folds.ts';
export {
  predictAll,
  scoreEval,
  kfoldOnnx,
  crossDatasetOnnx,
  trainAndLoad,
  abstentionReport,
  type EvalResult,
  type Prediction,
  type Protocol,
  type AbstentionReport,
} from './eval/evaluate.ts';
export { evaluateClassifier, type EvaluateRequest } from './eval/run-eval.ts';
export { writeEvalResults, CLASSIFIER_EVAL_SCHEMA } from './eval/store.ts';
export { confusionChartSpec } from './eval/chart.ts';
export { evalJson, evalText } from './eval/format.ts';
