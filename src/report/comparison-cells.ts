/**
 * Paired comparisons as report cells: `+0.052 [0.021, 0.083] p_holm 0.004 *` — the mean difference A − B, its 95%
 * paired bootstrap CI, the Holm-adjusted p-value within the comparison's family, and `*` when it survives the
 * correction (p_holm < α). Rows come from the `comparisons` table (src/store/stats-tables.ts).
 */
import Table from 'cli-table3';
import type { ComparisonRow } from '../eval/stats/results/index.ts';
import { points } from '../eval/verdicts/rule.ts';
import type { ResultStore } from '../store/index.ts';
import { typeColumns } from './per-type-table.ts';
import type { SeriesKey } from './series-label.ts';

export const HOLM_ALPHA = 0.05;

/**
 * A stored comparison as the report reads it back: the fields of the one comparison row (src/eval/stats/results,
 * `ComparisonRow`) the cells show, plus the granularity of its run; test and bootstrap as stored text.
 */
export type ComparisonCell = Pick<
  ComparisonRow,
  'run' | 'dataset' | 'methodA' | 'methodB' | 'adaptType' | 'nPairs' | 'nExcluded' | 'meanDiff' | 'ciLow' | 'ciHigh'
> &
  Pick<ComparisonRow, 'pValue' | 'pHolm'> & { granularity: string; test: string; bootstrap: string };

const signed = (x: number): string => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(3)}`;
const plain = (x: number): string => x.toFixed(3);
const pText = (p: number): string => (Number.isNaN(p) ? 'n/a' : p < 0.001 ? '< 0.001' : p.toFixed(3));

/** Points (×100, one decimal, the HTML page's unit) instead of the metric's own fractions; signed as verdicts are. */
const plainPoints = (x: number): string => `${x < 0 ? '−' : ''}${Math.abs(x * 100).toFixed(1)}`;

export function formatComparison(
  c: Pick<ComparisonCell, 'meanDiff' | 'ciLow' | 'ciHigh' | 'pHolm'>,
  unit: 'fraction' | 'points' = 'fraction',
): string {
  const star = c.pHolm < HOLM_ALPHA ? ' *' : '';
  const [s, p] = unit === 'points' ? [points, plainPoints] : [signed, plain];
  return `${s(c.meanDiff)} [${p(c.ciLow)}, ${p(c.ciHigh)}] p_holm ${pText(c.pHolm)}${star}`;
}

interface Row {
  run: string;
  dataset: string;
  method_a: string;
  method_b: string;
  granularity: string | null;
  adapt_type: string;
  n_pairs: number;
  n_excluded: number;
  mean_diff: number;
  ci_low: number;
  ci_high: number;
  p_value: number;
  p_holm: number;
  test: string;
  bootstrap: string;
}

export async function loadComparisons(
  store: ResultStore,
  q: { metric: string; level: string; k: number | null },
): Promise<ComparisonCell[]> {
  const rows = await store.query<Row>(
    `SELECT c.*, m.granularity FROM comparisons c LEFT JOIN methods m ON m.run_id = c.run AND m.method = c.method_a
     WHERE c.metric = $1 AND c.level = $2 AND c.k IS NOT DISTINCT FROM $3 ORDER BY c.dataset, c.run, c.method_a, c.adapt_type`,
    [q.metric, q.level, q.k],
  );
  return rows.map((r) => ({
    run: r.run,
    dataset: r.dataset,
    methodA: r.method_a,
    methodB: r.method_b,
    granularity: r.granularity ?? '',
    adaptType: r.adapt_type,
    nPairs: r.n_pairs,
    nExcluded: r.n_excluded,
    meanDiff: r.mean_diff,
    ciLow: r.ci_low,
    ciHigh: r.ci_high,
    pValue: r.p_value,
    pHolm: r.p_holm,
    test: r.test,
    bootstrap: r.bootstrap,
  }));
}

/** One row per dataset × method (vs its reference), one column per type; null when there are no comparisons. */
export function comparisonsTable(
  cells: readonly ComparisonCell[],
  title: string,
  label: (k: SeriesKey) => string,
): string | null {
  if (cells.length === 0) return null;
  const columns = typeColumns(cells.map((c) => c.adaptType));
  const table = new Table({
    head: ['dataset', 'method', 'vs', ...columns],
    style: { head: [], border: [], compact: true },
  });
  const groups = new Map<string, ComparisonCell[]>();
  for (const c of cells) {
    const key = `${c.dataset}\t${c.run}\t${c.methodA}\t${c.methodB}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const list of groups.values()) {
    const c0 = list[0]!;
    const byType = new Map(list.map((c) => [c.adaptType, c]));
    table.push([
      c0.dataset,
      label({ run_id: c0.run, method: c0.methodA, granularity: c0.granularity }),
      c0.methodB,
      ...columns.map((t) => {
        const c = byType.get(t);
        return c ? `${formatComparison(c)}${c.nExcluded > 0 ? ` (${c.nExcluded} excl.)` : ''}` : '—';
      }),
    ]);
  }
  const tests = [...new Set(cells.map((c) => c.test))].join(', ');
  const boots = [...new Set(cells.map((c) => `${c.dataset}: ${c.bootstrap}`))].join('; ');
  return [
    `${title}  — cells: mean difference A − B [95% paired bootstrap CI] p_holm; * = significant after Holm correction (p_holm < ${HOLM_ALPHA})`,
    table.toString(),
    `tests: ${tests}; bootstrap resamples: ${boots}; "excl." = questions only one of the two methods scored (errors), left out of the pair`,
  ].join('\n');
}
