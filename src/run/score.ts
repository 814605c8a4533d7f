/**
 * Turns one method's retrieval into long-format score rows (metric, k, level, value) with the official
 * "counted" flag per level, using the retrieval metrics of src/eval. A level the question does not count at keeps
 * its rows (for inspection) with `counted = false` and the reason.
 */
import type { GoldMode } from '../eval/index.ts';
import { evaluateRetrieval } from '../eval/index.ts';
import type { MemoryIndex } from '../core/interfaces.ts';
import type { Instance, Retrieval } from '../core/types.ts';
import type { ScoreRow } from '../store/types.ts';

export type LevelScore = Pick<ScoreRow, 'level' | 'metric' | 'k' | 'value' | 'counted' | 'excludedWhy'>;

/**
 * Why a question's rows stay out of every average whatever the level, or null: a question outside the five types
 * (a task judged for compliance, a summary; `Gold.reportAs: outside`) is reported by its native type only, never
 * inside a per-type or overall mean (docs/datasets.md §4.5).
 */
export function outsideHeadline(instance: Pick<Instance, 'gold'>): string | null {
  return instance.gold.reportAs === 'outside'
    ? `outside the five AdaptMR types (${instance.gold.nativeType}; reported by native type)`
    : null;
}

export function scoreRetrieval(
  instance: Instance,
  index: MemoryIndex,
  retrieval: Retrieval,
  ks: readonly number[],
  mode: GoldMode,
): LevelScore[] {
  const result = evaluateRetrieval({
    ranked: retrieval.units.map((u) => u.unit),
    indexed: index.units,
    granularity: index.spec.granularity,
    gold: instance.gold,
    mode,
    ks,
  });
  const verdicts = new Map(result.levels.map((l) => [l.level, l]));
  const outside = outsideHeadline(instance);
  return result.rows.map((r) => {
    const v = verdicts.get(r.level);
    if (outside !== null) return { ...r, counted: false, excludedWhy: v?.skipReason ?? outside };
    return { ...r, counted: v?.counted ?? false, excludedWhy: v?.skipReason ?? null };
  });
}
