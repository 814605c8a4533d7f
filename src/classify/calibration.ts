/**
 * Calibrated probabilities for the rules classifier: the map from its cue scores to a distribution, fitted by
 * `adaptmr classifier calibrate` (src/tools/classifier/calibrate/) on a calibration split the evaluation then
 * excludes, and read here from a committed JSON file (option `calibrationFile` of `rules`), as the abstention
 * thresholds are (src/strategies/thresholds.ts).
 *
 * Input of the map: the rules' raw cue counts s ∈ ℕ⁵ (ADAPT_TYPES order) and u = 1 when no cue matched.
 * - `temperature` (Guo et al., "On Calibration of Modern Neural Networks", ICML 2017, §4.2 temperature scaling,
 *   applied to the rules' logits): p = softmax(β · (s + π·e_default)), β and the default prior π fitted;
 * - `matrix` (the same paper's matrix scaling — the multiclass extension of Platt scaling): p = softmax(W·[s; u] + b),
 *   W ∈ ℝ^{5×6}, b ∈ ℝ⁵, fitted with an L2 penalty.
 * Both are fitted by minimising the negative log-likelihood of the gold types on the calibration split.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError, errorMessage } from '../core/errors.ts';
import { formatZodError } from '../core/registry.ts';
import { ADAPT_TYPES, AdaptTypeSchema, type AdaptType } from '../core/types.ts';

const Vec5 = z.array(z.number()).length(5);

export const TemperatureParamsSchema = z
  .object({
    method: z.literal('temperature'),
    beta: z.number().positive(),
    defaultPrior: z.number().min(0),
    defaultType: AdaptTypeSchema,
  })
  .strict();
export const MatrixParamsSchema = z
  .object({
    method: z.literal('matrix'),
    weights: z.array(z.array(z.number()).length(6)).length(5),
    bias: Vec5,
    l2: z.number().min(0),
  })
  .strict();
export const CalibrationParamsSchema = z.discriminatedUnion('method', [TemperatureParamsSchema, MatrixParamsSchema]);
export type CalibrationParams = z.infer<typeof CalibrationParamsSchema>;

const EceSchema = z.object({ before: z.number(), after: z.number(), n: z.number().int() }).strict();

export const ClassifierCalibrationFileSchema = z
  .object({
    version: z.literal(1),
    classifier: z.literal('rules'),
    params: CalibrationParamsSchema,
    dataset: z.string(),
    seed: z.number().int(),
    fraction: z.number(),
    nCalibration: z.number().int(),
    /** The questions the map was fitted on: the evaluation leaves them out. */
    calibrationQuestionIds: z.array(z.string()),
    /** Expected calibration error (10 equal-width bins, top label) of the rules before and after, on the held-out rest. */
    ece: EceSchema,
    createdAt: z.string(),
  })
  .strict();
export type ClassifierCalibrationFile = z.infer<typeof ClassifierCalibrationFileSchema>;

export function readClassifierCalibration(path: string): ClassifierCalibrationFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InputError(`cannot read classifier calibration file: ${errorMessage(err)}`, path);
  }
  const parsed = ClassifierCalibrationFileSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(formatZodError(parsed.error), path);
  return parsed.data;
}

export function softmax(logits: readonly number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map((z) => Math.exp(z - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** The features the matrix map reads: cue counts (ADAPT_TYPES order) and the no-cue indicator. */
export function calibrationFeatures(scores: Record<AdaptType, number>): number[] {
  const s = ADAPT_TYPES.map((t) => scores[t]);
  return [...s, s.every((v) => v === 0) ? 1 : 0];
}

/** Calibrated distribution (ADAPT_TYPES order) from raw cue counts. */
export function applyCalibration(params: CalibrationParams, scores: Record<AdaptType, number>): number[] {
  if (params.method === 'temperature') {
    return softmax(
      ADAPT_TYPES.map((t) => params.beta * (scores[t] + (t === params.defaultType ? params.defaultPrior : 0))),
    );
  }
  const x = calibrationFeatures(scores);
  return softmax(params.weights.map((row, k) => row.reduce((acc, w, j) => acc + w * (x[j] ?? 0), params.bias[k] ?? 0)));
}
