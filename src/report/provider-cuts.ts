/**
 * The fairness contract in the report (docs/memory-servers.md): for every memory-server method (http-memory,
 * mcp-memory, Mem0, Zep, Graphiti), how many of its retrievals the benchmark cut to k because the provider returned
 * more (and the most it returned), and how many came back with fewer than k. Read from the retrieval notes the shared
 * memory-server method writes (`returned`, `cutToK`, `fewerThanK`; baselines/memory-server/render.ts). Methods
 * without these notes (in-process baselines, which return exactly what they rank) are not listed.
 */
import type { RetrievalNotes } from '../core/types.ts';
import type { ResultStore } from '../store/index.ts';

export interface ProviderCuts {
  runId: string;
  method: string;
  /** Retrievals with a provider count. */
  retrievals: number;
  /** The benchmark's k (the largest seen, for a run with several). */
  k: number | null;
  cutToK: number;
  maxReturned: number;
  fewerThanK: number;
  minReturned: number;
}

/** The notes' memory-server counts (RetrievalNotes), checked when read: a stored file is data. */
type Notes = Pick<RetrievalNotes, 'returned' | 'cutToK' | 'fewerThanK'>;

/** One entry per (run, method) whose retrievals carry the provider's `returned` count. */
export async function loadProviderCuts(store: ResultStore): Promise<ProviderCuts[]> {
  const rows = await store.query<{ run_id: string; method: string; k: number | null; notes: string }>(
    `SELECT run_id, method, k, CAST(notes AS VARCHAR) AS notes FROM retrievals
     WHERE notes IS NOT NULL AND CAST(notes AS VARCHAR) LIKE '%"returned":%' ORDER BY run_id, method`,
  );
  const out = new Map<string, ProviderCuts>();
  for (const r of rows) {
    let notes: Notes;
    try {
      notes = JSON.parse(r.notes) as Notes;
    } catch {
      continue;
    }
    if (typeof notes.returned !== 'number') continue;
    const key = `${r.run_id}\t${r.method}`;
    const c = out.get(key) ?? {
      runId: r.run_id,
      method: r.method,
      retrievals: 0,
      k: null,
      cutToK: 0,
      maxReturned: 0,
      fewerThanK: 0,
      minReturned: Number.POSITIVE_INFINITY,
    };
    c.retrievals += 1;
    if (r.k !== null && (c.k === null || r.k > c.k)) c.k = r.k;
    if (notes.cutToK === true) c.cutToK += 1;
    if (notes.fewerThanK === true) c.fewerThanK += 1;
    c.maxReturned = Math.max(c.maxReturned, notes.returned);
    c.minReturned = Math.min(c.minReturned, notes.returned);
    out.set(key, c);
  }
  return [...out.values()];
}

/** One method's line: what was cut to k and what came back short. */
export function providerCutsText(c: ProviderCuts): string {
  const k = c.k === null ? 'k' : `k = ${c.k}`;
  const cut =
    c.cutToK > 0
      ? `${c.cutToK} of ${c.retrievals} retrievals cut to ${k} (the provider returned up to ${c.maxReturned})`
      : `none of ${c.retrievals} retrievals over ${k}`;
  const fewer = c.fewerThanK > 0 ? `; ${c.fewerThanK} returned fewer than ${k} (as few as ${c.minReturned})` : '';
  return `${cut}${fewer}`;
}

/** The terminal report's block (empty when no method carries provider counts). */
export function providerCutsNote(cuts: readonly ProviderCuts[]): string {
  if (cuts.length === 0) return '';
  const many = new Set(cuts.map((c) => c.runId)).size > 1;
  const lines = cuts.map((c) => `  ${c.method}${many ? ` (${c.runId})` : ''}: ${providerCutsText(c)}`);
  return `Fairness contract — memory systems cut to the benchmark's k (docs/memory-servers.md):\n${lines.join('\n')}`;
}
