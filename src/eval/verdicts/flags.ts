/**
 * The `flags` of a verdict row (docs/statistics.md "Flags"): facts about the cells that limit what the row can show,
 * said in its reason and marked on the page. Exported for every report that wants the same rule (one function, plain
 * numbers in, flag names out):
 *   ceiling  the method the claim must rise above is within the MDE of 100%: no difference as large as the MDE fits
 *            above it (S update: BM25 95.7%);
 *   floor    the method the claim wants higher is within the MDE of 0%: it cannot exceed the other by the MDE
 *            (LoCoMo-Plus, 1.7–7.0% for every method);
 *   chance   either method is within the cell MDE of (or below) the rate of k units drawn at random from each
 *            question's haystack (chance.ts; only where the file knows the haystack's size — schema 5);
 *   inert    an ablation that changed no ranking: the difference is 0 by construction (set by the builder);
 *   tie      the comparator was one of several strategies tied on the selection half (set by the builder).
 * The MDE is the cell's own — one paired test at α = 0.05 and 80% power at its n, not the row's MDE at α / m: a flag
 * speaks of the cell, not of its family's correction. An MDE that is undefined (the paired differences do not vary)
 * counts as 0: only a cell exactly at 100% / 0% is flagged then.
 */
export const FLAGS = ['ceiling', 'floor', 'chance', 'inert', 'tie'] as const;
export type Flag = (typeof FLAGS)[number];

export interface CellFacts {
  /** Mean of the method the claim wants higher (A for a gain, B for a drop), over the row's questions, in [0, 1]. */
  higher: number;
  /** Mean of the other method, in [0, 1]. */
  lower: number;
  /** The cell's MDE in the same units (one test at α = 0.05, 80% power), or null when undefined. */
  mde: number | null;
  /** The random-top-k rate over the same questions, or null when unknown. */
  chance?: number | null;
}

/** The cell flags of a row (ceiling, floor, chance), in FLAGS order. */
export function cellFlags(c: CellFacts): Flag[] {
  const room = c.mde ?? 0;
  const out: Flag[] = [];
  if (c.lower >= 1 - room - 1e-12) out.push('ceiling');
  if (c.higher <= room + 1e-12) out.push('floor');
  if (c.chance !== undefined && c.chance !== null && Math.min(c.higher, c.lower) <= c.chance + room + 1e-12)
    out.push('chance');
  return out;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The words a flagged row's reason ends with ("at ceiling: …"), or undefined for a row without flags. */
export function flagText(
  flags: readonly Flag[],
  c?: CellFacts & { higherId: string; lowerId: string },
): string | undefined {
  const parts: string[] = [];
  const mde = c
    ? c.mde === null
      ? 'exactly'
      : `within its cell MDE (${(c.mde * 100).toFixed(1)} points, α 0.05)`
    : '';
  for (const f of flags) {
    if (f === 'ceiling') parts.push(c ? `at ceiling: ${c.lowerId} ${pct(c.lower)} is ${mde} of 100%` : 'at ceiling');
    else if (f === 'floor') parts.push(c ? `at floor: ${c.higherId} ${pct(c.higher)} is ${mde} of 0%` : 'at floor');
    else if (f === 'chance')
      parts.push(
        c && c.chance !== undefined && c.chance !== null
          ? `at chance: ${c.lower <= c.higher ? `${c.lowerId} ${pct(c.lower)}` : `${c.higherId} ${pct(c.higher)}`} is ${mde} of a random top-k's ${pct(c.chance)} or below it`
          : 'at chance',
      );
    else if (f === 'inert') parts.push('inert: the ablation changed no ranking');
    else parts.push('tie: the comparator tied with others on the selection half');
  }
  return parts.length > 0 ? `flags: ${parts.join('; ')}` : undefined;
}

/** The stored form of the `flags` column: comma-separated in FLAGS order ('' for none). */
export const flagsColumn = (flags: readonly Flag[]): string => FLAGS.filter((f) => flags.includes(f)).join(',');

/** The stored column back to flags (unknown words dropped). */
export const parseFlags = (column: string | null | undefined): Flag[] =>
  (column ?? '').split(',').filter((f): f is Flag => (FLAGS as readonly string[]).includes(f));
