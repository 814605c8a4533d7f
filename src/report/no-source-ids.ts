/**
 * Methods whose system returns memories without source ids (Mem0: `output: 'text'` in the `methods` table) have no
 * retrieval metrics. Retrieval tables name them with "n/a — the system returns no source ids", so a missing row is
 * never mistaken for a score of 0 or a forgotten method (DESIGN.md §6).
 */
import type { ResultStore } from '../store/index.ts';

export const NO_SOURCE_IDS = 'n/a — the system returns no source ids';

export async function methodsWithoutSourceIds(store: ResultStore): Promise<string[]> {
  const rows = await store.query<{ method: string }>(`SELECT DISTINCT method FROM methods WHERE output = 'text' ORDER BY method`);
  return rows.map((r) => r.method);
}

/** The lines appended under a retrieval table (empty when every method returns source ids). */
export function noSourceIdsNote(methods: readonly string[]): string {
  return methods.map((m) => `${m}: ${NO_SOURCE_IDS}`).join('\n');
}
