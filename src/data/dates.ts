/**
 * Parsers for the two datasets' time formats. Both give local wall-clock times without a zone; they are stored as
 * `…Z` ISO strings so that times compare and sort (see `Session.at` in src/core/types.ts).
 */
const MONTHS = [
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

function iso(y: number, mo: number, d: number, h: number, mi: number): string | undefined {
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

/** The weekday characters of `周X`, Monday first (一 … 六, then 日 for Sunday). */
const ZH_WEEKDAYS = '一二三四五六日';

/**
 * MemDaily (MemSim): `2024年04月02日 周二 07:24` → `{ at: '2024-04-02T07:24:00Z', weekdayAgrees: true }`; undefined
 * when the text does not match or names no real date. The weekday is checked against the date, not trusted: a
 * mismatch is returned for the caller to report.
 */
export function parseMemDailyTime(text: string): { at: string; weekdayAgrees: boolean } | undefined {
  const m = /^(\d{4})年(\d{2})月(\d{2})日 周([一二三四五六日]) (\d{2}):(\d{2})$/u.exec(text.trim());
  if (!m) return undefined;
  const at = iso(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[5]), Number(m[6]));
  if (!at) return undefined;
  const monday0 = (new Date(at).getUTCDay() + 6) % 7;
  return { at, weekdayAgrees: ZH_WEEKDAYS[monday0] === m[4] };
}

/** BEAM batch anchors: `March-15-2024` (python `%B-%d-%Y`) → `2024-03-15T00:00:00Z`; undefined when it does not match. */
export function parseBeamAnchor(text: string): string | undefined {
  const m = /^([A-Za-z]+)-(\d{1,2})-(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[1]!.toLowerCase() as (typeof MONTHS)[number]);
  if (month < 0) return undefined;
  return iso(Number(m[3]), month + 1, Number(m[2]), 0, 0);
}

/** The inverse of `parseMemDailyTime`: `2024-04-02T07:24:00Z` → `2024年04月02日 周二 07:24` (for MemSim's prompts). */
export function formatMemDailyTime(at: string): string {
  const d = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  const weekday = ZH_WEEKDAYS[(d.getUTCDay() + 6) % 7];
  return `${d.getUTCFullYear()}年${two(d.getUTCMonth() + 1)}月${two(d.getUTCDate())}日 周${weekday} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}
