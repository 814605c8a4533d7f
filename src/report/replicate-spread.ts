/**
 * The across-replicate spread of a method run with `replicates: n` (src/run/config/replicates.ts): its replicates are the
 * methods `<id>:r1` … `<id>:rn`; for each dataset and AdaptMR type (and `all`) this gives the replicates' per-type
 * means (from `scores_by_type`) as min, max and sample SD, so a reader sees how much a system with LLM extraction
 * varies run to run. Cells are `mean% [min–max] sd`; a method with one replicate has no row.
 */
import Table from 'cli-table3';
import { parseReplicateId } from '../core/replicate-id.ts';
import type { ResultStore } from '../store/index.ts';
import { typeColumns } from './per-type-table.ts';

export interface SpreadCell {
  dataset: string;
  method: string;
  adaptType: string;
  replicates: number;
  mean: number;
  min: number;
  max: number;
  /** Sample SD of the replicates' means (n − 1). */
  sd: number;
}

export interface SpreadQuery {
  metric: string;
  level: string;
  k: number | null;
}

/** One cell per (dataset, replicated method, type) with at least two replicates. */
export async function loadReplicateSpread(store: ResultStore, q: SpreadQuery): Promise<SpreadCell[]> {
  const rows = await store.query<{ dataset: string; method: string; adapt_type: string; mean: number }>(
    `SELECT dataset, method, adapt_type, mean FROM scores_by_type
     WHERE native_type = 'all' AND metric = ? AND level = ? AND k IS NOT DISTINCT FROM ? AND method LIKE '%:r%'
     ORDER BY dataset, method, adapt_type`,
    [q.metric, q.level, q.k],
  );
  const groups = new Map<string, { dataset: string; method: string; adaptType: string; means: number[] }>();
  for (const r of rows) {
    const rep = parseReplicateId(r.method);
    if (!rep) continue;
    const key = `${r.dataset}\t${rep.base}\t${r.adapt_type}`;
    const g = groups.get(key) ?? { dataset: r.dataset, method: rep.base, adaptType: r.adapt_type, means: [] };
    g.means.push(r.mean);
    groups.set(key, g);
  }
  return [...groups.values()].filter((g) => g.means.length >= 2).map(spreadOf);
}

function spreadOf(g: { dataset: string; method: string; adaptType: string; means: number[] }): SpreadCell {
  const n = g.means.length;
  const mean = g.means.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(g.means.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  return {
    dataset: g.dataset,
    method: g.method,
    adaptType: g.adaptType,
    replicates: n,
    mean,
    min: Math.min(...g.means),
    max: Math.max(...g.means),
    sd,
  };
}

const pct = (x: number): string => (x * 100).toFixed(1);

/** The text table (null without replicated methods). */
export function replicateSpreadTable(cells: readonly SpreadCell[], title: string): string | null {
  if (cells.length === 0) return null;
  const columns = typeColumns(cells.map((c) => c.adaptType));
  const table = new Table({ head: ['dataset', 'method', 'replicates', ...columns], style: { head: [], border: [] } });
  const rows = new Map<string, SpreadCell[]>();
  for (const c of cells) rows.set(`${c.dataset}\t${c.method}`, [...(rows.get(`${c.dataset}\t${c.method}`) ?? []), c]);
  for (const group of rows.values()) {
    const first = group[0]!;
    const byType = new Map(group.map((c) => [c.adaptType, c]));
    table.push([
      first.dataset,
      first.method,
      String(Math.max(...group.map((c) => c.replicates))),
      ...columns.map((t) => {
        const c = byType.get(t);
        return c ? `${pct(c.mean)} [${pct(c.min)}–${pct(c.max)}] sd ${pct(c.sd)}` : '—';
      }),
    ]);
  }
  return `${title}\n${table.toString()}`;
}
