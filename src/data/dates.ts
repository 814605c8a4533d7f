/**
 * Parsers for the datasets' time formats, and `iso`, which the benchmarks' own parsers build on. They give local wall-clock times without a zone; they are stored as
 * `…Z` ISO strings so that times compare and sort (see `Session.at` in src/core/types.ts).
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

/** LongMemEval: `2023/05/30 (Tue) 23:40` → `2023-05-30T23:40:00Z`; undefined when the text does not match. */
export function parseLongMemEvalDate(text: string): string | undefined {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) \([A-Za-z]{3}\) (\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  return iso(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
}

/**
 * LoCoMo: `1:56 pm on 8 May, 2023` (python `%I:%M %p on %d %B, %Y`) → `2023-05-08T13:56:00Z`.
 * Month names may be abbreviated (`8 Jan, 2023`) as a courtesy to hand-made files.
 */
export function parseLocomoDate(text: string): string | undefined {
  const m = /^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})$/i.exec(text.trim());
  if (!m) return undefined;
  const name = m[5]!.toLowerCase();
  const month = MONTHS.findIndex((full) => full === name || (name.length >= 3 && full.startsWith(name)));
  if (month < 0) return undefined;
  const h12 = Number(m[1]);
  if (h12 < 1 || h12 > 12) return undefined;
  const h = (h12 % 12) + (m[3]!.toLowerCase() === 'p' ? 12 : 0);
  return iso(Number(m[6]), month + 1, Number(m[4]), h, Number(m[2]));
}
