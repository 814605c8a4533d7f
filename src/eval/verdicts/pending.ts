/**
 * The two rows a claim builder writes for one comparison: its paired test (estimate, CI and p from the test, the claim
 * to judge it by) or, when the sample holds no pair, an `n/a` row saying why. One shape for every claim file.
 */
import type { PendingVerdict } from './families.ts';
import type { TestedPairs } from './inputs.ts';
import type { Claim } from './rule.ts';

/** A verdict row's identity: everything but the numbers the test fills in. */
export type RowKey = Omit<PendingVerdict['row'], 'n' | 'estimate' | 'ciLow' | 'ciHigh' | 'pValue'>;
type Extra = Partial<Omit<PendingVerdict, 'row' | 'family' | 'tested' | 'claim' | 'pValue'>>;

/** The row of a paired test, judged by `claim`. */
export function testedVerdict(
  row: RowKey,
  family: string | null,
  tested: TestedPairs,
  claim: Claim,
  extra: Extra = {},
): PendingVerdict {
  const r = tested.result;
  return {
    row: { ...row, n: tested.ids.length, estimate: r.meanDiff, ciLow: r.ciLow, ciHigh: r.ciHigh, pValue: r.pValue },
    family,
    tested,
    pValue: r.pValue,
    claim,
    ...extra,
  };
}

/** An `n/a` row with no cell: `reason` says why (it is the whole reason). */
export function noCellVerdict(row: RowKey, family: string | null, reason: string, extra: Extra = {}): PendingVerdict {
  return {
    row: { ...row, n: 0, estimate: null, ciLow: null, ciHigh: null, pValue: null },
    family,
    tested: null,
    pValue: Number.NaN,
    claim: null,
    fixed: { verdict: 'n/a', reason },
    ...extra,
  };
}
