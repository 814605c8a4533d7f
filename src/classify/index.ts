/**
 * Query-type classifiers (plan §2.2). Re-exports only. Training and evaluation are tools (src/tools/classifier).
 *   classifiers: Registry<Classifier, ClassifierDeps>   rules · llm · rules+llm · onnx (no gold anywhere)
 *   createOracleClassifier(goldTypeById) → OracleClassifier   "oracle (upper bound)", the one classifier given gold
 *   loadOnnxClassifier(path, format)   a model from `adaptmr classifier train` or a Hugging Face folder
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
export { KIND_HASHED_LINEAR, META_FEATURES, META_KIND, META_LABELS, softmax } from './onnx/model-format.ts';
export { DEFAULT_FEATURE_SPEC, featureStrings, sparseFeatures, denseFeatures, fnv1a32, type FeatureSpec } from './onnx/features.ts';
export { HashedOnnxClassifier, readOnnxMetadata } from './onnx/hashed-classifier.ts';
export { HfOnnxClassifier, isHfLayout } from './onnx/hf-classifier.ts';
export { loadOnnxClassifier, type OnnxFormat } from './onnx/load.ts';
