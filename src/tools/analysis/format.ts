/**
 * Markdown tables of the analyses (printable on a terminal, pasteable into docs/). Means with 3 decimals and their
 * n; "–" where a ratio is undefined (nothing flagged, no question of that type on the report half).
 */
import type { AbstentionScore } from './abstention.ts';
import { UPPER_BOUND_LABEL, type BestStrategyRow } from '../../eval/analysis/best-strategy.ts';

const num = (v: number | null): string => (v === null ? '–' : v.toFixed(3));

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** One table per dataset: rows are series (the bound first), columns AdaptMR types then `all`, cells `mean (n)`. */
export function formatBestStrategy(rows: readonly BestStrategyRow[], title: string): string {
  const out: string[] = [];
  for (const dataset of [...new Set(rows.map((r) => r.dataset))]) {
    const mine = rows.filter((r) => r.dataset === dataset);
    const types = [...new Set(mine.map((r) => r.adaptType))].sort((a, b) =>
      a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b),
    );
    const series = [...new Set(mine.map((r) => r.series))];
    const cell = (s: string, t: string): string => {
      const r = mine.find((x) => x.series === s && x.adaptType === t);
      return r ? `${num(r.reportMean)} (${r.nReport})` : '';
    };
    out.push(`### ${dataset} — ${title}, report half`);
    out.push(
      table(
        ['series', ...types],
        series.map((s) => [s, ...types.map((t) => cell(s, t))]),
      ),
    );
    const bounds = mine.filter((r) => r.series === UPPER_BOUND_LABEL && r.adaptType !== 'all');
    out.push(
      `\nChosen on the selection half: ${bounds.map((b) => `${b.adaptType} → ${b.chosen ?? 'none'} (${num(b.selectionMean)}, n=${b.nSelection})`).join('; ')}\n`,
    );
  }
  return out.join('\n');
}

export function formatAbstention(rows: readonly AbstentionScore[]): string {
  return table(
    [
      'dataset',
      'method',
      'n',
      'abstention questions',
      'flagged no-memory',
      'true positives',
      'precision',
      'recall',
      'F1',
    ],
    rows.map((r) => [
      r.dataset,
      r.method,
      String(r.n),
      String(r.nAbstention),
      String(r.nFlagged),
      String(r.truePositives),
      num(r.precision),
      num(r.recall),
      num(r.f1),
    ]),
  );
}
