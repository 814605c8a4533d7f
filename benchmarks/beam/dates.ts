/** BEAM's time format. */
import { iso, MONTHS } from '../../src/data/dates.ts';

/** BEAM batch anchors: `March-15-2024` (python `%B-%d-%Y`) → `2024-03-15T00:00:00Z`; undefined when it does not match. */
export function parseBeamAnchor(text: string): string | undefined {
  const m = /^([A-Za-z]+)-(\d{1,2})-(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[1]!.toLowerCase() as (typeof MONTHS)[number]);
  if (month < 0) return undefined;
  return iso(Number(m[3]), month + 1, Number(m[2]), 0, 0);
}
