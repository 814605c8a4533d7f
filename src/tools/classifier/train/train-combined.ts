/**
 * `adaptmr classifier train --datasets <list>`: the combined training set (combined.ts) → a recipe (recipe.ts) →
 * calibration on the training benchmarks only (calibrate-model.ts) → the model with its logits divided by the
 * fitted temperature, and metadata naming the training set by content hash, the recipe and the fallback threshold.
 */
import { compareIds } from '../../../data/index.ts';
import { META_FALLBACK_THRESHOLD, META_TRAINING_SET } from '../../../classify/onnx/model-format.ts';
import { calibrateOnTraining, scaledByTemperature, type ModelCalibration } from './calibrate-model.ts';
import { combinedTrainingSet, type CombinedSet } from './combined.ts';
import { fitRecipe, recipeName, type Recipe } from './recipe.ts';
import { RowCache, type TrainedModel } from './select.ts';

export interface CombinedModel {
  model: TrainedModel;
  set: CombinedSet;
  calibration: ModelCalibration;
  /** metadata_props to write beside the model's own. */
  metadata: Record<string, string>;
}

/** Trains `recipe` on the combined set of `names`; `calibrate: false` skips the inner fits (T 1, no threshold). */
export async function trainCombined(opts: {
  names: readonly string[];
  dataDir?: string | undefined;
  recipe: Recipe;
  seed: number;
  calibrate?: boolean;
  /** Train on each dataset's calibration split only; the model then names its training questions (runs leave them out). */
  split?: { fraction: number; seed: number };
}): Promise<CombinedModel> {
  const set = await combinedTrainingSet(opts.names, opts.dataDir, opts.split);
  const r = trainOnSet(set, opts.recipe, opts.seed, opts.calibrate ?? true);
  if (opts.split) r.model.trainingIds = [...new Set(set.splitIds ?? [])].sort(compareIds);
  return r;
}

export function trainOnSet(set: CombinedSet, recipe: Recipe, seed: number, calibrate = true): CombinedModel {
  const cache = new RowCache();
  const calibration: ModelCalibration = calibrate
    ? calibrateOnTraining(set.questions, recipe, seed, cache)
    : {
        inner: 'none',
        temperature: 1,
        fallbackThreshold: 0,
        heldOut: { n: 0, accuracy: 0, nllBefore: 0, nllAfter: 0, fallbackShare: 0 },
      };
  const raw = fitRecipe(set.questions, recipe, seed, cache);
  const model = scaledByTemperature(raw, calibration.temperature);
  const benchmarks = [...new Set(set.questions.map((q) => q.benchmark))];
  const metadata: Record<string, string> = {
    [META_TRAINING_SET]: JSON.stringify({
      sha256: set.sha256,
      n: set.questions.length,
      benchmarks,
      sources: set.sources,
      conflicts: set.conflicts,
      recipe: { ...recipe, name: recipeName(recipe) },
      seed,
      calibration,
    }),
    ...(calibrate ? { [META_FALLBACK_THRESHOLD]: String(calibration.fallbackThreshold) } : {}),
  };
  return { model, set, calibration, metadata };
}
