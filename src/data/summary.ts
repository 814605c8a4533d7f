/**
 * Dataset summary for `adaptmr data info` and reports: questions by native and AdaptMR type, and sessions/turns
 * counted once per distinct haystack (a LoCoMo conversation shared by ~200 questions counts once).
 */
import type { AdaptType, Instance } from '../core/types.ts';
import { compareIds } from './sort.ts';

export interface DataInfo {
  dataset: string;
  questions: number;
  sessions: number;
  turns: number;
  byNativeType: Record<string, number>;
  byAdaptType: Partial<Record<AdaptType, number>>;
  abstention: number;
}

function sortedCounts<K extends string>(m: Map<K, number>): Record<K, number> {
  return Object.fromEntries([...m.entries()].sort(([a], [b]) => compareIds(a, b))) as Record<K, number>;
}

export function summarize(name: string, instances: readonly Instance[]): DataInfo {
  const seen = new Set<string>();
  let sessions = 0;
  let turns = 0;
  const native = new Map<string, number>();
  const adapt = new Map<AdaptType, number>();
  let abstention = 0;
  for (const inst of instances) {
    if (!seen.has(inst.haystackId)) {
      seen.add(inst.haystackId);
      sessions += inst.haystack.length;
      for (const s of inst.haystack) turns += s.turns.length;
    }
    native.set(inst.gold.nativeType, (native.get(inst.gold.nativeType) ?? 0) + 1);
    adapt.set(inst.gold.type, (adapt.get(inst.gold.type) ?? 0) + 1);
    if (inst.gold.isAbstention) abstention++;
  }
  return {
    dataset: name,
    questions: instances.length,
    sessions,
    turns,
    byNativeType: sortedCounts(native),
    byAdaptType: sortedCounts(adapt),
    abstention,
  };
}
