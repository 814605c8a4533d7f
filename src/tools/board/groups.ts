/**
 * What may be compared on a board: results of one dataset whose comparability keys are equal — the same
 * dataset-content hash (byte-identical questions, gold and histories), the same sample and question count, the same
 * k, the same reader and the same judge panel — and whose headline cell is the same metric on the same basis. Per
 * dataset, the group holding the most bundles is the board's table; every other group is shown apart, with the
 * first way it differs from that table.
 */
import type { BoardEntry } from './entries.ts';

export interface Group {
  dataset: string;
  entries: BoardEntry[];
  /** Why this group is not in its dataset's main table; empty for the main table. */
  apart: string;
}

const short = (s: string): string => `${s.slice(0, 12)}…`;

const groupKey = (e: BoardEntry): string => JSON.stringify([e.key, e.headline.id]);

/** The first way `b` differs from `a`, said for a reader. */
export function difference(a: BoardEntry, b: BoardEntry): string {
  if (a.key.content_sha256 !== b.key.content_sha256) {
    return `other questions or data: dataset-content hash ${short(b.key.content_sha256)} (table: ${short(a.key.content_sha256)})`;
  }
  if (JSON.stringify(a.key.sample) !== JSON.stringify(b.key.sample) || a.key.questions !== b.key.questions) {
    return `other sample: ${JSON.stringify(b.key.sample)}, ${b.key.questions} questions (table: ${JSON.stringify(a.key.sample)}, ${a.key.questions})`;
  }
  if (JSON.stringify(a.key.k) !== JSON.stringify(b.key.k))
    return `other k: ${b.key.k.join(', ')} (table: ${a.key.k.join(', ')})`;
  if (a.key.reader !== b.key.reader)
    return `other reader: ${b.key.reader ?? 'none'} (table: ${a.key.reader ?? 'none'})`;
  if (JSON.stringify(a.key.judges) !== JSON.stringify(b.key.judges)) {
    return `other judge panel: ${b.key.judges.join(', ') || 'none'} (table: ${a.key.judges.join(', ') || 'none'})`;
  }
  return `other headline metric: ${b.headline.name} (table: ${a.headline.name})`;
}

export function groupEntries(entries: readonly BoardEntry[]): Group[] {
  const byDataset = new Map<string, Map<string, BoardEntry[]>>();
  for (const e of entries) {
    const groups = byDataset.get(e.dataset) ?? new Map<string, BoardEntry[]>();
    groups.set(groupKey(e), [...(groups.get(groupKey(e)) ?? []), e]);
    byDataset.set(e.dataset, groups);
  }
  const out: Group[] = [];
  for (const [dataset, groups] of [...byDataset].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const list = [...groups.values()];
    const bundles = (g: BoardEntry[]): number => new Set(g.map((e) => e.bundle)).size;
    const main = list.reduce((best, g) => (bundles(g) > bundles(best) ? g : best), list[0]!);
    out.push({ dataset, entries: main, apart: '' });
    for (const g of list.filter((x) => x !== main))
      out.push({ dataset, entries: g, apart: difference(main[0]!, g[0]!) });
  }
  return out;
}
