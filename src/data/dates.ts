/**
 * What the benchmarks' time parsers build on (benchmarks/<name>/dates.ts): datasets give local wall-clock times
 * without a zone; they are stored as `…Z` ISO strings so that times compare and sort (see `Session.at` in
 * src/core/types.ts).
 */
/** English month names, January first (lower case). */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

/** `y-mo-d h:mi` as a `…Z` ISO string; undefined for a date Date.UTC would roll over or a time past 23:59. */
export function iso(y: number, mo: number, d: number, h: number, mi: number): string | undefined {
  const t = Date.UTC(y, mo - 1, d, h, mi);
  const date = new Date(t);
  // Reject dates that Date.UTC would roll over (31 April → 1 May).
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  if (h > 23 || mi > 59) return undefined;
  return date.toISOString().replace('.000Z', 'Z');
}
