/**
 * Cross-benchmark evaluation of the trainable classifier: each split (lobo-splits.ts) trains the recipe
 * on its training part — calibrated by inner leave-one-benchmark-out on that part only, unless `calibrate` is off —,
 * writes the ONNX file, loads it through onnxruntime-node and classifies the test part one question at a time (the
 * latency measured is a real `classify` call). Every question is predicted by a model that never saw it (and, in
 * leave-one-benchmark-out, never saw its benchmark).
 */
import { join } from 'node:path';
import { HashedOnnxClassifier } from '../../../classify/onnx/hashed-classifier.ts';
import { calibrateOnTraining, scaledByTemperature, type ModelCalibration } from '../train/calibrate-model.ts';
import type { BenchmarkQuestion } from '../train/combined.ts';
import { writeModel } from '../train/export.ts';
import { fitRecipe, type Recipe } from '../train/recipe.ts';
import { RowCache } from '../train/select.ts';
import { predictAll, withTempDir } from './evaluate.ts';
import type { Split } from './lobo-splits.ts';
import type { Prediction } from '../../../store/classifier-eval-types.ts';

export interface SplitOutcome {
  split: string;
  nTrain: number;
  calibration: ModelCalibration | null;
  /** Aligned with the split's test questions. */
  predictions: Prediction[];
}

export async function runSplits(
  splits: readonly Split[],
  recipe: Recipe,
  seed: number,
  opts: { calibrate?: boolean; cache?: RowCache } = {},
): Promise<SplitOutcome[]> {
  const cache = opts.cache ?? new RowCache();
  const out: SplitOutcome[] = [];
  await withTempDir(async (dir) => {
    for (const [i, s] of splits.entries()) {
      const calibration = opts.calibrate === false ? null : calibrateOnTraining(s.train, recipe, seed, cache);
      const model = scaledByTemperature(fitRecipe(s.train, recipe, seed, cache), calibration?.temperature ?? 1);
      const file = join(dir, `split-${i}.onnx`);
      await writeModel(model, file);
      const clf = await HashedOnnxClassifier.load(file);
      const predictions = await predictAll(clf, s.test, { seed, fold: i });
      out.push({ split: s.name, nTrain: s.train.length, calibration, predictions });
    }
  });
  return out;
}

/** Seeded subsample of `fraction` of `train`, per benchmark × type (each cell keeps at least one question). */
export function subsample(train: readonly BenchmarkQuestion[], fraction: number, seed: number): BenchmarkQuestion[] {
  if (fraction >= 1) return [...train];
  const cells = new Map<string, BenchmarkQuestion[]>();
  for (const q of train) {
    const key = `${q.benchmark}\u0000${q.gold}`;
    cells.set(key, [...(cells.get(key) ?? []), q]);
  }
  const out: BenchmarkQuestion[] = [];
  for (const qs of cells.values()) {
    const ranked = qs
      .map((q) => ({ q, r: hashRank(`${seed}\u0000${q.dataset}\u0000${q.query.id}`) }))
      .sort((a, b) => a.r - b.r);
    out.push(...ranked.slice(0, Math.max(1, Math.round(fraction * qs.length))).map((x) => x.q));
  }
  return out;
}

function hashRank(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
