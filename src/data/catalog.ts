/** The light, per-question view used to choose questions (stratified sampling) before full haystacks are built. */
import type { AdaptType, ExtraTypeLabel } from '../core/types.ts';

export interface CatalogEntry {
  questionId: string;
  nativeType: string;
  adaptType: AdaptType;
  isAbstention: boolean;
  /** The label the question is reported under when it fits none of the five types (`Gold.reportAs`). */
  reportAs?: ExtraTypeLabel;
  /** The file the question was read from (folder layouts), so a later pass can read only the files it keeps. */
  file?: string;
  /**
   * The haystack group the question is asked of, when several questions share one (a LoCoMo conversation, a BEAM
   * chat, a MemDaily trajectory); absent when the question has a haystack of its own. A sharded run keeps each group
   * in one shard, so a haystack is indexed (and a memory server ingests it) once.
   */
  haystack?: string;
}

/**
 * The files holding `kept` (folder layouts: one question per file), so a reader opens only those; undefined when an
 * entry names no file (an array file), where the whole file is read.
 */
export function filesOf(kept: readonly CatalogEntry[]): Set<string> | undefined {
  return kept.every((c) => c.file !== undefined) ? new Set(kept.map((c) => c.file!)) : undefined;
}

/** The label a catalog entry is stratified and reported under: its extra label, else its AdaptMR type. */
export function stratum(c: Pick<CatalogEntry, 'adaptType' | 'reportAs'>): string {
  return c.reportAs ?? c.adaptType;
}
