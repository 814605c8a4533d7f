/**
 * `adaptmr classifier calibrate`: fits the rules classifier's probability map on a calibration split and measures
 * it on the rest. The split is the abstention calibration's (`calibrationSplit` of src/tools/calibrate: seeded,
 * stratified by type, default 30 %), so with the same dataset and seed both calibrations hold out the same
 * questions. Reports, on the held-out questions: ECE and accuracy before / after, the reliability bins, and the
 * routes the fusion router (plan §2.4, τ = 0.2) would take with the raw and the calibrated probabilities.
 */
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';
import {
  applyCalibration,
  type CalibrationParams,
  type ClassifierCalibrationFile,
} from '../../../classify/calibration.ts';
import { argmaxType } from '../../../classify/result.ts';
import { matchCues, RulesClassifier } from '../../../classify/rules.ts';
import { planRoute, RouterConfigSchema, type AbstentionMode } from '../../../routing/router.ts';
import { calibrationSplit } from '../../calibrate/calibrate.ts';
import type { LabelledQuestion } from '../eval/questions.ts';
import { expectedCalibrationError, reliabilityBins, type ReliabilityBin, type ScoredPrediction } from './ece.ts';
import { fitMatrix, fitTemperature, type CalibrationExample } from './fit.ts';

export type CalibrationMethod = CalibrationParams['method'];

export interface CalibrateClassifierInput {
  dataset: string;
  questions: readonly LabelledQuestion[];
  method: CalibrationMethod;
  seed: number;
  fraction: number;
}

export interface Assessment {
  accuracy: number;
  ece: number;
  nll: number;
  bins: ReliabilityBin[];
}

export interface CalibrationReport {
  file: ClassifierCalibrationFile;
  heldOut: { n: number; raw: Assessment; temperature: Assessment; matrix: Assessment };
  /** Route label → count over the held-out questions, fusion τ = 0.2, per abstention mode. */
  routes: Record<AbstentionMode, { raw: Record<string, number>; calibrated: Record<string, number> }>;
  /** Distinct probability vectors among held-out questions (the raw rules give a handful). */
  distinctDistributions: { raw: number; calibrated: number };
}

type Dist = { type: AdaptType; probs: Record<AdaptType, number> };

function assess(dists: readonly Dist[], golds: readonly AdaptType[]): Assessment {
  const preds: ScoredPrediction[] = dists.map((d, i) => ({
    confidence: d.probs[d.type],
    correct: d.type === golds[i],
  }));
  const nll =
    -dists.reduce((s, d, i) => s + Math.log(Math.max(1e-12, d.probs[golds[i] as AdaptType])), 0) /
    Math.max(1, dists.length);
  return {
    accuracy: preds.filter((p) => p.correct).length / Math.max(1, preds.length),
    ece: expectedCalibrationError(preds),
    nll,
    bins: reliabilityBins(preds),
  };
}

function calibratedDist(params: CalibrationParams, text: string): Dist {
  const values = applyCalibration(params, matchCues(text).scores);
  const probs = Object.fromEntries(ADAPT_TYPES.map((t, i) => [t, values[i] ?? 0])) as Record<AdaptType, number>;
  return { type: argmaxType(probs), probs };
}

function routeCounts(dists: readonly Dist[], mode: AbstentionMode): Record<string, number> {
  const config = RouterConfigSchema.parse({ kind: 'fusion' });
  const counts: Record<string, number> = {};
  for (const d of dists) {
    const { route } = planRoute(config, mode, { probs: d.probs, seed: 0 });
    counts[route] = (counts[route] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

const distinct = (dists: readonly Dist[]) =>
  new Set(dists.map((d) => ADAPT_TYPES.map((t) => d.probs[t].toFixed(6)).join(','))).size;

export function calibrateRules(input: CalibrateClassifierInput, now = new Date()): CalibrationReport {
  const ids = new Set(
    calibrationSplit(
      input.questions.map((q) => ({ questionId: q.query.id, adaptType: q.gold })),
      input.fraction,
      input.seed,
    ),
  );
  const calib = input.questions.filter((q) => ids.has(q.query.id));
  const rest = input.questions.filter((q) => !ids.has(q.query.id));
  const examples: CalibrationExample[] = calib.map((q) => ({ scores: matchCues(q.query.text).scores, gold: q.gold }));
  const fitted = { temperature: fitTemperature(examples), matrix: fitMatrix(examples) };
  const params = fitted[input.method];
  const rules = new RulesClassifier();
  const golds = rest.map((q) => q.gold);
  const raw = rest.map((q) => rules.explain(q.query.text));
  const byMethod = {
    temperature: rest.map((q) => calibratedDist(fitted.temperature, q.query.text)),
    matrix: rest.map((q) => calibratedDist(fitted.matrix, q.query.text)),
  };
  const chosen = byMethod[input.method];
  const heldOut = {
    n: rest.length,
    raw: assess(raw, golds),
    temperature: assess(byMethod.temperature, golds),
    matrix: assess(byMethod.matrix, golds),
  };
  const file: ClassifierCalibrationFile = {
    version: 1,
    classifier: 'rules',
    params,
    dataset: input.dataset,
    seed: input.seed,
    fraction: input.fraction,
    nCalibration: calib.length,
    calibrationQuestionIds: [...ids],
    ece: { before: heldOut.raw.ece, after: heldOut[input.method].ece, n: rest.length },
    createdAt: now.toISOString(),
  };
  return {
    file,
    heldOut,
    routes: {
      route: { raw: routeCounts(raw, 'route'), calibrated: routeCounts(chosen, 'route') },
      gate: { raw: routeCounts(raw, 'gate'), calibrated: routeCounts(chosen, 'gate') },
    },
    distinctDistributions: { raw: distinct(raw), calibrated: distinct(chosen) },
  };
}
