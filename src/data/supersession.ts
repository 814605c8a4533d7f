/**
 * Superseded evidence: the evidence of an older value a dataset marks as replaced, which the stale-evidence metric
 * (`stale_above`, src/eval/rank-metrics.ts) asks whether a method ranks above the current value. How it is decided,
 * per benchmark (docs/datasets.md §4.6):
 *
 * each benchmark decides it in its own loader (benchmarks/<name>/supersession.ts), from what its knowledge updates
 * name; where they name the old evidence beside the new, a config may count it as gold (`BenchmarkDataset.updateGold`).
 *
 * `gold: { update: both }` (where the dataset allows it) puts the superseded messages back into the evidence, as gold to retrieve.
 */
import type { Instance } from '../core/types.ts';

export const UPDATE_GOLD = ['current', 'both'] as const;
export type UpdateGold = (typeof UPDATE_GOLD)[number];

/** `gold: { update: both }`: the superseded evidence joins the gold evidence (still recorded as superseded). */
export function withUpdateGold(instance: Instance, update: UpdateGold | undefined): Instance {
  const g = instance.gold;
  if (update !== 'both' || !g.supersededTurnIds?.length) return instance;
  const sessions = [...new Set([...g.evidenceSessionIds, ...(g.supersededSessionIds ?? [])])];
  const turns = [...new Set([...g.evidenceTurnIds, ...g.supersededTurnIds])];
  return { ...instance, gold: { ...g, evidenceSessionIds: sessions, evidenceTurnIds: turns } };
}
