/**
 * Human labels for what a verdict or a comparison compares, shared by the forest plots and tables of the terminal
 * charts, the HTML report and the notebooks: a sweep variation reads "w/o temporal strategy" rather than
 * "adaptmr vs adaptmr", a claim reads as its two sides, and p-values below 0.001 read "< 0.001".
 */
import type { VerdictRow } from '../store/index.ts';

/** The variation id of a sweep run name (`exp4-ablations.no-temporal-strategy` → `no-temporal-strategy`). */
export const variationOfRun = (name: string): string => (name.includes('.') ? name.slice(name.indexOf('.') + 1) : name);

/** `no-temporal-strategy` → `w/o temporal strategy`; `full` → `full system`; other ids with spaces for hyphens. */
export function variationLabel(id: string): string {
  if (id === 'full' || id === 'base') return 'full system';
  const words = (s: string): string => s.replace(/-/gu, ' ').replace(/\bmulti hop\b/gu, 'multi-hop');
  const m = /^no-(.+)$/u.exec(id);
  return m ? `w/o ${words(m[1]!)}` : words(id);
}

/** Method id → degraded reason, to mark stand-ins. */
type Marks = Readonly<Record<string, string>> | ReadonlyMap<string, string>;

function mark(id: string | null, marks?: Marks): string {
  if (id === null) return '—';
  const d = marks instanceof Map ? marks.get(id) : (marks as Record<string, string> | undefined)?.[id];
  return d ? `${id} (${d})` : id;
}

/** What a verdict row compares, in words (its type is shown apart). */
export function claimLabel(v: Pick<VerdictRow, 'claim' | 'methodA' | 'methodB' | 'adaptType'>, marks?: Marks): string {
  const a = mark(v.methodA, marks);
  const b = mark(v.methodB, marks);
  if (v.claim.startsWith('ablation:')) return variationLabel(v.claim.slice('ablation:'.length));
  switch (v.claim) {
    case 'factual-high-weak-low':
      return `${a}: factual − ${v.adaptType === 'all' ? 'weak types' : v.adaptType}`;
    case 'overhead':
      return `${a} ÷ ${b} (time)`;
    case 'premise-single-strategy':
      return `oracle − every single strategy (closest: ${b})`;
    case 'oracle-vs-best-single':
      return `oracle − ${b} (best single)`;
    case 'adaptmr-vs-strongest': // files written before every baseline was compared
      return `${a} − ${b} (strongest)`;
    case 'adaptmr-vs-baseline':
      return `${a} − ${b} (baseline)`;
    case 'adaptmr-vs-all-baselines':
      return `${a} − every baseline (closest: ${b})`;
    case 'adaptmr-over-bm25':
    case 'adaptmr-over-hybrid':
      return `${a} − ${b} (its first stage)`;
    default:
      return v.methodB === null ? a : `${a} − ${b}`;
  }
}

/** A p-value as text: `< 0.001`, three decimals, or `n/a`. */
export const pValueText = (p: number | null | undefined): string =>
  p === null || p === undefined || Number.isNaN(p) ? 'n/a' : p < 0.001 ? '< 0.001' : p.toFixed(3);
