/**
 * The record of one classifier evaluation as the store keeps it (tables classifier_eval, classifier_type_scores,
 * classifier_confusion, classifier_predictions; see classifier-eval.ts) and the report draws it. The evaluation tool
 * (src/tools/classifier/eval) produces these records.
 */
import type { ProbSource } from '../classify/result.ts';
import type { AdaptType } from '../core/types.ts';

export interface TypeScores {
  precision: number;
  recall: number;
  f1: number;
  /** Gold questions of this type. */
  support: number;
  predicted: number;
}

export interface ClassifierMetrics {
  n: number;
  accuracy: number;
  macroF1: number;
  perType: Record<AdaptType, TypeScores>;
  /** confusion[gold][predicted] = count. */
  confusion: Record<AdaptType, Record<AdaptType, number>>;
  /** Types averaged by macro-F1. */
  macroTypes: AdaptType[];
}

export type Protocol = 'as-is' | 'kfold' | 'cross-dataset' | 'leave-one-benchmark-out';

export interface Prediction {
  questionId: string;
  dataset: string;
  fold: number | null;
  gold: AdaptType;
  nativeType: string;
  isAbstention: boolean;
  predicted: AdaptType;
  probs: Record<AdaptType, number>;
  source: ProbSource;
  route: 'rules' | 'llm' | null;
  latencyMs: number;
}

export interface AbstentionReport {
  /** Questions whose gold is abstention. */
  n: number;
  /** … that the classifier labelled abstention. */
  flagged: number;
  /** … whose text has any abstention cue of the rules layer ("did I mention…", "有没有说过…"): visible at all. */
  withSurfaceCue: number;
  /** Non-abstention questions with such a cue (how specific the cue is). */
  cueOnOthers: number;
}

export interface EvalResult {
  evalId: string;
  classifier: string;
  /** Display label; the oracle's is "oracle (gold type)". */
  label: string;
  upperBound: boolean;
  dataset: string;
  protocol: Protocol;
  trainDataset: string | null;
  folds: number | null;
  seed: number | null;
  metrics: ClassifierMetrics;
  /** Same metrics on the questions whose gold is not abstention (what a text classifier can be asked to do). */
  withoutAbstention: ClassifierMetrics;
  abstention: AbstentionReport;
  latency: { p50Ms: number; p95Ms: number; meanMs: number };
  sources: Partial<Record<ProbSource, number>>;
  routes: { rules: number; llm: number } | null;
  predictions: Prediction[];
  createdAt: string;
}
