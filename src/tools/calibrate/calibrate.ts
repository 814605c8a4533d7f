/**
 * `adaptmr calibrate`: picks the abstention thresholds θ_high / θ_low for one embedder on a calibration split, and
 * records the split so the evaluation can exclude it (no tuning on reported questions).
 *
 * Split: seeded and stratified by AdaptMR type — per type, ids sorted, shuffled with a seeded Fisher–Yates
 * (`shuffledByType` of src/data/sample.ts, salted `calibrate:<type>`), the first round(fraction × n) kept (at least one per non-empty
 * type). Default fraction 0.3.
 *
 * Rule (documented default, not tuned): s = top-1 cosine of the question against its haystack.
 * - θ_low  = 5th percentile of s over answerable questions → at most ~5 % of answerable questions fall below θ_low and
 *   are refused without a check;
 * - θ_high = 95th percentile of s over abstention questions → at most ~5 % of unanswerable questions are answered
 *   without a check.
 * If θ_low > θ_high the two populations separate and there is no uncertain band: both become their midpoint.
 * Percentiles interpolate linearly between order statistics (numpy.quantile's default `linear` method).
 */
import type { Embedder, IndexSpec, MemoryIndex } from '../../core/interfaces.ts';
import { InputError } from '../../core/errors.ts';
import type { Instance } from '../../core/types.ts';
import type { CatalogEntry } from '../../data/catalog.ts';
import { shuffledByType } from '../../data/sample.ts';
import { compareIds } from '../../data/sort.ts';
import { createMemoryIndex } from '../../index/memory-index.ts';
import type { CalibrationEntry, ThresholdsFile } from '../../strategies/thresholds.ts';

export const CALIBRATION_RULE =
  'theta_low = p5(top1 | answerable), theta_high = p95(top1 | abstention); midpoint if crossed';

export function calibrationSplit(
  catalog: readonly Pick<CatalogEntry, 'questionId' | 'adaptType' | 'reportAs'>[],
  fraction: number,
  seed: number,
): string[] {
  const chosen: string[] = [];
  for (const ids of shuffledByType(catalog, seed, (type) => `calibrate:${type}`).values()) {
    chosen.push(...ids.slice(0, Math.max(1, Math.round(fraction * ids.length))));
  }
  return chosen.sort(compareIds);
}

/** numpy.quantile(values, q) with the default linear interpolation. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error('quantile of an empty list');
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export function pickThresholds(
  answerable: readonly number[],
  abstention: readonly number[],
): { high: number; low: number } {
  if (answerable.length === 0) throw new InputError('the calibration split has no answerable question');
  if (abstention.length === 0)
    throw new InputError('the calibration split has no abstention question; use a dataset with abstention questions');
  const low = quantile(answerable, 0.05);
  const high = quantile(abstention, 0.95);
  if (low > high) {
    const mid = (low + high) / 2;
    return { high: mid, low: mid };
  }
  return { high, low };
}

export interface CalibrateInput {
  dataset: string;
  instances: readonly Instance[];
  embedder: Embedder;
  spec: IndexSpec;
  seed: number;
  fraction: number;
}

/** Top-1 cosines of the calibration questions (indexes shared per haystack), then the thresholds. */
export async function calibrate(
  input: CalibrateInput,
  now = new Date(),
): Promise<{ entry: CalibrationEntry; scores: { id: string; abstention: boolean; top1: number }[] }> {
  const indexes = new Map<string, MemoryIndex>();
  const scores: { id: string; abstention: boolean; top1: number }[] = [];
  for (const inst of input.instances) {
    let index = indexes.get(inst.haystackId);
    if (!index) {
      index = createMemoryIndex(inst.haystack, input.spec, input.embedder);
      indexes.set(inst.haystackId, index);
    }
    const top = (await index.semantic(inst.query.text, 1))[0];
    if (top) scores.push({ id: inst.query.id, abstention: inst.gold.isAbstention, top1: top.score });
  }
  const { high, low } = pickThresholds(
    scores.filter((s) => !s.abstention).map((s) => s.top1),
    scores.filter((s) => s.abstention).map((s) => s.top1),
  );
  return {
    scores,
    entry: {
      high,
      low,
      dataset: input.dataset,
      granularity: input.spec.granularity,
      seed: input.seed,
      fraction: input.fraction,
      nCalibration: scores.length,
      nAbstention: scores.filter((s) => s.abstention).length,
      rule: CALIBRATION_RULE,
      calibrationQuestionIds: input.instances.map((i) => i.query.id).sort(compareIds),
      createdAt: now.toISOString(),
    },
  };
}

export function mergeThresholds(
  existing: ThresholdsFile | undefined,
  embedderId: string,
  entry: CalibrationEntry,
): ThresholdsFile {
  return { version: 1, embedders: { ...(existing?.embedders ?? {}), [embedderId]: entry } };
}

/** Every question id any calibration in the file used: the runner leaves these out of evaluation. */
export function calibrationQuestionIds(file: ThresholdsFile): Set<string> {
  return new Set(Object.values(file.embedders).flatMap((e) => e.calibrationQuestionIds));
}
