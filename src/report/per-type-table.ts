/**
 * The per-type text table: rows dataset × method, columns the AdaptMR types then `all` (the official overall
 * average), each cell `mean% (n)`, or `mean% ± sd (n)` when the mean is over repeated judge runs. Showing n lets a reader judge a cell's sample size; a mean outside [0, 1] or not
 * finite is a bug upstream (every reported metric is a ratio), so it stops the report instead of being printed.
 * Gold-type (oracle) methods carry the mark of palette.ts.
 */
import Table from 'cli-table3';
import { ADAPT_TYPES, EXTRA_TYPE_LABELS } from '../core/types.ts';
import { markedLabel } from './palette.ts';
import type { TypeMeanRow } from './type-means.ts';

export const TYPE_COLUMNS: readonly string[] = [...ADAPT_TYPES, 'all'];

/**
 * The type columns of a table over `present` types: the five, then each label of a question outside them that
 * occurs (LoCoMo-Plus's `cognitive`), then `all` — so the tables of LongMemEval and LoCoMo keep their columns.
 */
export function typeColumns(present: Iterable<string>): string[] {
  const seen = new Set(present);
  return [...ADAPT_TYPES, ...EXTRA_TYPE_LABELS.filter((l) => seen.has(l)), 'all'];
}

const pct = (x: number): string => (x * 100).toFixed(1);

function cell(row: TypeMeanRow | undefined): string {
  if (!row) return '—';
  if (row.na) return 'n/a';
  if (!Number.isFinite(row.mean) || row.mean < 0 || row.mean > 1) {
    throw new Error(`impossible mean ${row.mean} for ${row.dataset} / ${row.series} / ${row.adaptType}`);
  }
  const sd = row.sd !== undefined ? ` ± ${(row.sd * 100).toFixed(1)}` : '';
  const ci = row.ciLow !== undefined && row.ciHigh !== undefined ? ` [${pct(row.ciLow)}, ${pct(row.ciHigh)}]` : '';
  return `${pct(row.mean)}%${sd}${ci} (${row.n})`;
}

/** Renders the table as text; `title` is printed above it. */
export function perTypeTable(rows: readonly TypeMeanRow[], title: string): string {
  const columns = typeColumns(rows.map((r) => r.adaptType));
  const table = new Table({ head: ['dataset', 'method', ...columns], style: { head: [], border: [], compact: true } });
  const byKey = new Map(rows.map((r) => [`${r.dataset}\t${r.series}\t${r.adaptType}`, r]));
  const keys = [...new Set(rows.map((r) => `${r.dataset}\t${r.series}`))];
  const na = new Set(rows.filter((r) => r.na).map((r) => `${r.dataset}\t${r.series}`));
  const upper = new Set(rows.filter((r) => r.upperBound === true).map((r) => `${r.dataset}\t${r.series}`));
  for (const key of keys) {
    const [dataset = '', series = ''] = key.split('\t');
    table.push([
      dataset,
      markedLabel(series, upper.has(key)),
      ...columns.map((t) => (na.has(key) ? 'n/a' : cell(byKey.get(`${key}\t${t}`)))),
    ]);
  }
  if (keys.length === 0) return `${title}\n(no counted scores)`;
  const legend = rows.some((r) => r.ciLow !== undefined)
    ? 'mean [95% bootstrap CI] (n questions)'
    : 'mean (n questions)';
  return `${title}  — cells: ${legend}\n${table.toString()}`;
}
