/**
 * Ceiling (and floor) of a verdict's cells: when both compared cells lie within the verdict's MDE of 100% (or of 0%),
 * no difference the sample could detect fits between them and the bound, so a "not established" or "not met" there
 * says little about the methods — the reason says "at ceiling". Also the headline rule's test of a cell at ceiling
 * (headline.ts), which has no MDE yet: a best method at 99% or more.
 */

/** The share a cell's best method must reach for the headline rule to call the cell at ceiling. */
export const HEADLINE_CEILING = 0.99;

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/**
 * "at ceiling (…)" when both cell means are within `mde` of 1 or of 0, else undefined. Means outside [0, 1] (a
 * metric that is not a proportion) or an undefined MDE give undefined.
 */
export function ceilingNote(meanA: number, meanB: number, mde: number | null): string | undefined {
  if (mde === null || !Number.isFinite(mde) || ![meanA, meanB].every((m) => m >= 0 && m <= 1)) return undefined;
  const cells = `${pct(meanA)}, ${pct(meanB)}`;
  if (meanA >= 1 - mde && meanB >= 1 - mde) return `at ceiling (both cells within the MDE of 100%: ${cells})`;
  if (meanA <= mde && meanB <= mde) return `at ceiling (both cells within the MDE of 0%: ${cells})`;
  return undefined;
}
