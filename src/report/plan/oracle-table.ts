/**
 * The oracle's table (plan experiment 2, and the beyond-benchmarks section's oracle part, and the summary): per
 * dataset and type the strategy the selection half chose (tie rule), n, and on the report half the oracle, the
 * reference, the best single strategy and the per-question ceiling with their CIs, and the gap to the reference.
 */
import Table from 'cli-table3';
import type { OracleAnalysis } from '../../eval/verdicts/index.ts';
import { pct, points } from './plan-runs.ts';

const ci = (i: { estimate: number; low: number; high: number }): string =>
  `${pct(i.estimate)} [${pct(i.low)}, ${pct(i.high)}]`;

/** The oracle's table (cli-table3: `.toString()` for the terminal, `tableData` for the HTML page). */
export function oracleTable(analyses: readonly OracleAnalysis[], reference: string): Table.Table {
  const table = new Table({
    head: [
      'dataset',
      'type',
      'strategy chosen (tie rule)',
      'n',
      'oracle [95% CI]',
      `${reference}`,
      'best single',
      'ceiling',
      'oracle − unified [95% CI] p',
    ],
    style: { head: [], border: [], compact: true },
  });
  for (const a of analyses) {
    const choice = new Map(a.choices.map((c) => [c.adaptType, c]));
    for (const r of a.rows) {
      const c = choice.get(r.adaptType);
      const chosen =
        r.adaptType === 'all'
          ? '(per type)'
          : `${c!.chosen}${c!.tied.length > 1 ? ` (${c!.rule === 'own' ? 'own, ' : ''}tied ×${c!.tied.length})` : ''}`;
      const g = r.vsReference.result;
      table.push([
        a.dataset,
        r.adaptType,
        chosen,
        r.n,
        ci(r.oracle),
        ci(r.reference),
        ci(r.bestSingle),
        ci(r.ceiling),
        `${points(g.meanDiff)} [${points(g.ciLow)}, ${points(g.ciHigh)}] p ${g.pValue < 0.001 ? '< 0.001' : g.pValue.toFixed(3)}`,
      ]);
    }
  }
  return table;
}
