/**
 * The JSON of `classifier eval --protocol leave-one-benchmark-out` (and of k-fold with other benchmarks in
 * training): one row per held-out benchmark (or fold) with accuracy and macro-F1, with and without the abstention
 * questions (whose text rarely shows the type: the share of the errors they make is given), per language, the
 * fallback the calibrated threshold would take, latency; pooled per language and a pooled confusion matrix
 * (rows gold, columns predicted); the learning curve is added by the caller.
 */
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';
import type { Prediction } from '../../../store/classifier-eval-types.ts';
import type { Language } from '../train/combined.ts';
import type { SplitOutcome } from './lobo.ts';
import { computeMetrics, percentile } from './metrics.ts';

export interface LanguageRow {
  language: Language;
  n: number;
  accuracy: number;
  macro_f1: number;
  accuracy_without_abstention: number;
}

const pairs = (ps: readonly Prediction[]) => ps.map((p) => ({ gold: p.gold, predicted: p.predicted }));

function languageRows(ps: readonly Prediction[], languageOf: (p: Prediction) => Language): LanguageRow[] {
  const langs = [...new Set(ps.map(languageOf))].sort();
  return langs.map((language) => {
    const mine = ps.filter((p) => languageOf(p) === language);
    const m = computeMetrics(pairs(mine));
    return {
      language,
      n: m.n,
      accuracy: m.accuracy,
      macro_f1: m.macroF1,
      accuracy_without_abstention: computeMetrics(pairs(mine.filter((p) => p.gold !== 'abstention'))).accuracy,
    };
  });
}

function fallbackOf(o: SplitOutcome) {
  if (!o.calibration) return null;
  const t = o.calibration.fallbackThreshold;
  const top = (p: Prediction) => Math.max(...ADAPT_TYPES.map((k) => p.probs[k] ?? 0));
  const single = o.predictions.filter((p) => top(p) >= t);
  const back = o.predictions.filter((p) => top(p) < t);
  const acc = (ps: Prediction[]) => (ps.length ? ps.filter((p) => p.predicted === p.gold).length / ps.length : null);
  return {
    threshold: t,
    temperature: o.calibration.temperature,
    fallback_share: back.length / Math.max(1, o.predictions.length),
    accuracy_routed_single: acc(single),
    accuracy_fallen_back: acc(back),
  };
}

export function splitRow(o: SplitOutcome, languageOf: (p: Prediction) => Language) {
  const m = computeMetrics(pairs(o.predictions));
  const w = computeMetrics(pairs(o.predictions.filter((p) => p.gold !== 'abstention')));
  const errors = o.predictions.filter((p) => p.predicted !== p.gold);
  const lat = o.predictions.map((p) => p.latencyMs);
  return {
    benchmark: o.split,
    n: m.n,
    n_train: o.nTrain,
    accuracy: m.accuracy,
    macro_f1: m.macroF1,
    accuracy_without_abstention: w.accuracy,
    macro_f1_without_abstention: w.macroF1,
    abstention_n: m.n - w.n,
    abstention_share_of_errors: errors.length
      ? errors.filter((p) => p.gold === 'abstention').length / errors.length
      : 0,
    per_type_recall: Object.fromEntries(
      ADAPT_TYPES.filter((t) => m.perType[t].support > 0).map((t) => [t, m.perType[t].recall]),
    ),
    languages: languageRows(o.predictions, languageOf),
    fallback: fallbackOf(o),
    latency_p95_ms: percentile(lat, 95),
    confusion: m.confusion,
  };
}

export function crossBenchmarkJson(
  outcomes: readonly SplitOutcome[],
  languageOf: (p: Prediction) => Language,
  head: Record<string, unknown>,
) {
  const rows = outcomes.map((o) => splitRow(o, languageOf));
  const all = outcomes.flatMap((o) => o.predictions);
  const pooled = computeMetrics(pairs(all));
  const accs = rows.map((r) => r.accuracy);
  const lat = all.map((p) => p.latencyMs);
  return {
    ...head,
    benchmarks: rows,
    mean_accuracy: accs.reduce((a, b) => a + b, 0) / Math.max(1, accs.length),
    min_accuracy: Math.min(...accs),
    mean_macro_f1: rows.reduce((a, r) => a + r.macro_f1, 0) / Math.max(1, rows.length),
    mean_accuracy_without_abstention:
      rows.reduce((a, r) => a + r.accuracy_without_abstention, 0) / Math.max(1, rows.length),
    pooled: { n: pooled.n, accuracy: pooled.accuracy, macro_f1: pooled.macroF1 },
    languages: languageRows(all, languageOf),
    confusion: {
      rows: 'gold',
      columns: 'predicted',
      labels: ADAPT_TYPES,
      matrix: pooled.confusion as Record<AdaptType, Record<AdaptType, number>>,
    },
    latency: { p50_ms: percentile(lat, 50), p95_ms: percentile(lat, 95) },
  };
}
