/**
 * Abstention thresholds θ_high / θ_low per embedder. Cosine scales differ by embedder (the plan's 0.85 / 0.60 are
 * for one unnamed embedding model), so thresholds are keyed by `Embedder.id`; `adaptmr calibrate`
 * (src/tools/calibrate/calibrate.ts) writes them, with the calibration question ids the evaluation must exclude.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError, errorMessage } from '../core/errors.ts';
import { formatZodError } from '../core/registry.ts';

export const ThresholdPairSchema = z
  .object({ high: z.number(), low: z.number() })
  .refine((t) => t.low <= t.high, { message: 'low must be ≤ high' });
export type ThresholdPair = z.infer<typeof ThresholdPairSchema>;

/** Plan §2.3 策略 5 defaults (theta_high=0.85, theta_low=0.60). */
export const PLAN_THRESHOLDS: ThresholdPair = { high: 0.85, low: 0.6 };

export const CalibrationEntrySchema = z.object({
  high: z.number(),
  low: z.number(),
  dataset: z.string(),
  granularity: z.string(),
  seed: z.number().int(),
  fraction: z.number(),
  nCalibration: z.number().int(),
  nAbstention: z.number().int(),
  rule: z.string(),
  calibrationQuestionIds: z.array(z.string()),
  createdAt: z.string(),
});
export type CalibrationEntry = z.infer<typeof CalibrationEntrySchema>;

/** The calibration file: entries keyed by embedder id. */
export const ThresholdsFileSchema = z.object({
  version: z.literal(1),
  embedders: z.record(z.string(), CalibrationEntrySchema),
});
export type ThresholdsFile = z.infer<typeof ThresholdsFileSchema>;

export function readThresholdsFile(path: string): ThresholdsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InputError(`cannot read thresholds file: ${errorMessage(err)}`, path);
  }
  const parsed = ThresholdsFileSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(formatZodError(parsed.error), path);
  return parsed.data;
}
