/** The light, per-question view used to choose questions (stratified sampling) before full haystacks are built. */
import type { CatalogEntry } from '../core/dataset-records.ts';

export type { CatalogEntry };

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
