/**
 * Methods whose system returns memories without source ids (Mem0: `output: 'text'` in the `methods` table), and
 * methods that return units without ranking them (full context: `ranks: false` in its capabilities), have no
 * retrieval metrics. Retrieval tables name them with "n/a — …", so a missing row is never mistaken for a score of 0
 * or a forgotten method.
 */
import type { ResultStore } from '../store/index.ts';

export const NO_SOURCE_IDS = 'n/a — the system returns no source ids';
export const NO_RANKING = 'n/a — the method does not rank (the whole history in date order)';

export interface UnrankedMethod {
  method: string;
  why: string;
}

/** Methods with no retrieval metrics: no source ids (`output: text`), or no ranking (`ranks: false`, full context). */
export async function methodsWithoutSourceIds(store: ResultStore): Promise<UnrankedMethod[]> {
  const rows = await store.query<{ method: string; output: string; capabilities: string }>(
    `SELECT DISTINCT method, output, capabilities FROM methods WHERE output = 'text' OR capabilities LIKE '%"ranks":false%' ORDER BY method`,
  );
  const seen = new Map<string, string>();
  for (const r of rows) if (!seen.has(r.method)) seen.set(r.method, r.output === 'text' ? NO_SOURCE_IDS : NO_RANKING);
  return [...seen].map(([method, why]) => ({ method, why }));
}

/** The lines appended under a retrieval table (empty when every method has retrieval metrics). */
export function noSourceIdsNote(methods: readonly UnrankedMethod[]): string {
  return methods.map((m) => `${m.method}: ${m.why}`).join('\n');
}
