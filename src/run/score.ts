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
  return result.rows.map((r) => {
    const v = verdicts.get(r.level);
    return { ...r, counted: v?.counted ?? false, excludedWhy: v?.skipReason ?? null };
  });
}
