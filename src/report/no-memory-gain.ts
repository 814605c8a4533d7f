/**
 * The QA gain over the closed-book control (baselines/no-memory): per dataset and method, judged accuracy minus the
 * no-memory method's on the questions both answered (counted questions), in points. Without it a QA gain cannot be
 * attributed to memory. The paired test of each gain is the `memory-vs-none` verdict (src/eval/verdicts).
 */
import Table from 'cli-table3';
import type { ResultStore } from '../store/index.ts';
import type { QaItem } from './qa-items.ts';
import type { SeriesKey } from './series-label.ts';

/** `${run_id}\t${method}` of every no-memory method in the file. */
export async function loadNoMemoryMethods(store: ResultStore): Promise<Set<string>> {
  const rows = await store.query<{ run_id: string; method: string }>(
    `SELECT run_id, method FROM methods WHERE kind = 'no-memory'`,
  );
  return new Set(rows.map((r) => `${r.run_id}\t${r.method}`));
}

const pts = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

/** The table, or null when the file has no no-memory row or nothing to compare with it. */
export function noMemoryGainTable(
  items: readonly QaItem[],
  none: ReadonlySet<string>,
  label: (r: SeriesKey) => string,
): string | null {
  const scored = items.filter((i) => i.counted && i.accuracy !== null);
  const isNone = (i: QaItem): boolean => none.has(`${i.run_id}\t${i.method}`);
  const table = new Table({
    head: ['dataset', 'method', 'accuracy', 'no-memory', 'gain (points)', 'n'],
    style: { head: [], border: [], compact: true },
  });
  for (const dataset of [...new Set(scored.map((i) => i.dataset))]) {
    const mine = scored.filter((i) => i.dataset === dataset);
    const base = new Map(mine.filter(isNone).map((i) => [i.questionId, i.accuracy!]));
    if (base.size === 0) continue;
    const series = new Map<string, QaItem[]>();
    for (const i of mine.filter((x) => !isNone(x))) series.set(label(i), [...(series.get(label(i)) ?? []), i]);
    for (const [name, rows] of series) {
      const both = rows.filter((i) => base.has(i.questionId));
      if (both.length === 0) continue;
      const a = both.reduce((s, i) => s + i.accuracy!, 0) / both.length;
      const b = both.reduce((s, i) => s + base.get(i.questionId)!, 0) / both.length;
      table.push([dataset, name, `${(a * 100).toFixed(1)}%`, `${(b * 100).toFixed(1)}%`, pts(a - b), both.length]);
    }
  }
  if (table.length === 0) return null;
  return `QA gain over no memory (closed book: the question alone) — judged accuracy on the questions both answered\n${table.toString()}`;
}
