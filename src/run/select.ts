/**
 * Chooses which questions of a dataset a run covers, from the light catalogue pass (ids and labels only):
 * an explicit id list, a stratified per-type sample (seeded), and/or the first N ids. Selection reads gold labels
 * (to stratify) but only decides *which* questions run; methods still never see the labels.
 */
import type { DatasetRef } from '../core/config.ts';
import { InputError } from '../core/errors.ts';
import { stratifiedSample, type CatalogEntry } from '../data/index.ts';

export function selectQuestions(catalog: CatalogEntry[], ref: DatasetRef, runSeed: number): Set<string> {
  let ids = catalog.map((c) => c.questionId).sort();
  if (ref.questionIds) {
    const known = new Set(ids);
    const missing = ref.questionIds.filter((id) => !known.has(id));
    if (missing.length > 0)
      throw new InputError(
        `question ids not in the dataset: ${missing.slice(0, 5).join(', ')}`,
        'datasets[].questionIds',
      );
    const wanted = new Set(ref.questionIds);
    ids = ids.filter((id) => wanted.has(id));
  }
  if (ref.sample) {
    const current = new Set(ids);
    const chosen = stratifiedSample(
      catalog.filter((c) => current.has(c.questionId)),
      ref.sample.perType,
      ref.sample.seed ?? runSeed,
    );
    ids = ids.filter((id) => chosen.has(id));
  }
  if (ref.limit !== undefined) ids = ids.slice(0, ref.limit);
  return new Set(ids);
}
