/**
 * Dataset summary for `adaptmr data info` and reports: questions by native and AdaptMR type, and sessions/turns
 * counted once per distinct haystack (a conversation shared by many questions counts once).
 */
import { reportedType, type AdaptType, type ExtraTypeLabel, type Instance } from '../core/types.ts';
import { compareIds } from './sort.ts';

export interface DataInfo {
  dataset: string;
  questions: number;
  sessions: number;
  turns: number;
  byNativeType: Record<string, number>;
  /** Per AdaptMR type, and per extra label for questions outside the five types (`cognitive`, `outside`). */
  byAdaptType: Partial<Record<AdaptType | ExtraTypeLabel, number>>;
  abstention: number;
}

function sortedCounts<K extends string>(m: Map<K, number>): Record<K, number> {
  return Object.fromEntries([...m.entries()].sort(([a], [b]) => compareIds(a, b))) as Record<K, number>;
}

/** Counts instances one at a time, so a summary never needs the whole dataset in memory. */
export class Summarizer {
  private readonly seen = new Set<string>();
  private readonly ids = new Set<string>();
  private sessions = 0;
  private turns = 0;
  private readonly native = new Map<string, number>();
  private readonly adapt = new Map<AdaptType | ExtraTypeLabel, number>();
  private abstention = 0;
  private questions = 0;

  constructor(private readonly name: string) {}

  /** Adds one instance; false when its question id was already counted (a duplicate). */
  add(inst: Instance): boolean {
    if (this.ids.has(inst.query.id)) return false;
    this.ids.add(inst.query.id);
    this.questions++;
    if (!this.seen.has(inst.haystackId)) {
      this.seen.add(inst.haystackId);
      this.sessions += inst.haystack.length;
      for (const s of inst.haystack) this.turns += s.turns.length;
    }
    this.native.set(inst.gold.nativeType, (this.native.get(inst.gold.nativeType) ?? 0) + 1);
    const label = reportedType(inst.gold) as AdaptType | ExtraTypeLabel;
    this.adapt.set(label, (this.adapt.get(label) ?? 0) + 1);
    if (inst.gold.isAbstention) this.abstention++;
    return true;
  }

  result(): DataInfo {
    return {
      dataset: this.name,
      questions: this.questions,
      sessions: this.sessions,
      turns: this.turns,
      byNativeType: sortedCounts(this.native),
      byAdaptType: sortedCounts(this.adapt),
      abstention: this.abstention,
    };
  }
}

export function summarize(name: string, instances: readonly Instance[]): DataInfo {
  const s = new Summarizer(name);
  for (const inst of instances) s.add(inst);
  return s.result();
}
