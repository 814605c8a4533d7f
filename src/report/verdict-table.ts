/**
 * The `verdicts` table as text: one row per claim with its comparator, n, estimate and CI, p_holm with the family's
 * size, the MDE and the verdict with its reason — exactly as stored (src/store/verdicts-table.ts); nothing here
 * decides a verdict. `formatVerdict` is the one-line form (quick start, logs).
 */
import Table from 'cli-table3';
import type { VerdictRow } from '../store/index.ts';

/** Method id → degraded reason (`offline`), to mark stand-ins in verdict rows (which carry method ids only). */
export type MethodMarks = ReadonlyMap<string, string>;

const signedPoints = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

function marked(id: string | null, marks?: MethodMarks): string {
  if (id === null) return '—';
  const d = marks?.get(id);
  return d ? `${id} (${d})` : id;
}

/** `+12.3 [+4.0, +20.1]` points, or a ratio `1.42× [1.10, 1.80]` for the overhead claim. */
export function verdictEstimate(v: Pick<VerdictRow, 'claim' | 'estimate' | 'ciLow' | 'ciHigh'>): string {
  if (v.estimate === null) return 'n/a';
  if (v.claim === 'overhead')
    return `${v.estimate.toFixed(2)}×${v.ciLow !== null && v.ciHigh !== null ? ` [${v.ciLow.toFixed(2)}, ${v.ciHigh.toFixed(2)}]` : ''}`;
  return `${signedPoints(v.estimate)}${v.ciLow !== null && v.ciHigh !== null ? ` [${signedPoints(v.ciLow)}, ${signedPoints(v.ciHigh)}]` : ''}`;
}

const pText = (p: number | null): string =>
  p === null || Number.isNaN(p) ? '—' : p < 0.001 ? '< 0.001' : p.toFixed(3);

export function holmText(v: Pick<VerdictRow, 'pHolm' | 'familySize'>): string {
  return v.familySize === null ? pText(v.pHolm) : `${pText(v.pHolm)} (m ${v.familySize})`;
}

export const mdeText = (v: Pick<VerdictRow, 'mde'>): string => (v.mde === null ? '—' : `${(v.mde * 100).toFixed(1)}`);

/** One line: `locomo oracle-vs-unified [all] oracle − unified-embedding: +23.3 [+10.0, +42.9] n 30, p_holm 0.188 (m 3), MDE 37.6 → not established (…)`. */
export function formatVerdict(v: VerdictRow, marks?: MethodMarks): string {
  const who =
    v.methodB === null ? marked(v.methodA, marks) : `${marked(v.methodA, marks)} − ${marked(v.methodB, marks)}`;
  return `${v.dataset} ${v.claim} [${v.adaptType}] ${who}: ${verdictEstimate(v)} n ${v.n}, p_holm ${holmText(v)}, MDE ${mdeText(v)} → ${v.verdict} (${v.reason})`;
}

/** The terminal table of some verdicts (empty string when there are none). */
export function verdictTable(rows: readonly VerdictRow[], title: string, marks?: MethodMarks): string {
  if (rows.length === 0) return '';
  const table = new Table({
    head: ['dataset', 'claim', 'A', 'B', 'type', 'n', 'estimate [95% CI]', 'p_holm (m)', 'MDE', 'verdict', 'reason'],
    style: { head: [], border: [], compact: true },
    colWidths: [null, null, null, null, null, null, null, null, null, null, 72],
    wordWrap: true,
  });
  for (const v of rows) {
    table.push([
      v.dataset,
      v.claim,
      marked(v.methodA, marks),
      marked(v.methodB, marks),
      v.adaptType,
      v.n,
      verdictEstimate(v),
      holmText(v),
      mdeText(v),
      v.verdict,
      v.reason,
    ]);
  }
  const h = rows.find((v) => v.metric !== null && v.claim !== 'overhead');
  const headline = h
    ? ` at the headline (${[...new Set(rows.filter((v) => v.metric !== null && v.claim !== 'overhead').map((v) => `${v.dataset}: ${v.metric}${v.k === null ? '' : `@${v.k}`} ${v.level}`))].join('; ')})`
    : '';
  return `${title}${headline} — estimate in points (A − B); p_holm within the declared family of m claims; MDE = smallest difference detectable with 80% power at that n and α = 0.05 / m (docs/statistics.md)\n${table.toString()}`;
}
