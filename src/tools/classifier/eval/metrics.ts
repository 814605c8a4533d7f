/**
 * Classification metrics over the five AdaptMR types: accuracy, per-type precision/recall/F1, macro-F1 and the
 * confusion matrix (rows = gold, columns = predicted). Conventions follow scikit-learn's
 * `precision_recall_fscore_support` with `zero_division=0`: a type never predicted has precision 0, a type absent
 * from gold has recall 0; macro-F1 averages F1 over the types present in gold or predictions (sklearn's default
 * `labels` = the union of both), so a dataset without some type (LoCoMo has no `update`) is not penalised for it.
 */
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';

export type { ClassifierMetrics, TypeScores } from '../../../store/classifier-eval-types.ts';
import type { ClassifierMetrics, TypeScores } from '../../../store/classifier-eval-types.ts';

export function computeMetrics(pairs: readonly { gold: AdaptType; predicted: AdaptType }[]): ClassifierMetrics {
  const zeroRow = () => Object.fromEntries(ADAPT_TYPES.map((t) => [t, 0])) as Record<AdaptType, number>;
  const confusion = Object.fromEntries(ADAPT_TYPES.map((t) => [t, zeroRow()])) as Record<
    AdaptType,
    Record<AdaptType, number>
  >;
  let correct = 0;
  for (const { gold, predicted } of pairs) {
    confusion[gold][predicted] += 1;
    if (gold === predicted) correct += 1;
  }
  const perType = {} as Record<AdaptType, TypeScores>;
  const macroTypes: AdaptType[] = [];
  for (const t of ADAPT_TYPES) {
    const tp = confusion[t][t];
    const support = ADAPT_TYPES.reduce((s, p) => s + confusion[t][p], 0);
    const predicted = ADAPT_TYPES.reduce((s, g) => s + confusion[g][t], 0);
    const precision = predicted ? tp / predicted : 0;
    const recall = support ? tp / support : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    perType[t] = { precision, recall, f1, support, predicted };
    if (support || predicted) macroTypes.push(t);
  }
  const macroF1 = macroTypes.length ? macroTypes.reduce((s, t) => s + perType[t].f1, 0) / macroTypes.length : 0;
  return {
    n: pairs.length,
    accuracy: pairs.length ? correct / pairs.length : 0,
    macroF1,
    perType,
    confusion,
    macroTypes,
  };
}

/** Nearest-rank percentile (p in 0..100) of a sample; NaN for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}
