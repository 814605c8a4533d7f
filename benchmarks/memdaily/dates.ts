/** MemDaily's (MemSim's) time format, read and written. */
import { iso } from '../../src/data/dates.ts';

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

/** The inverse of `parseMemDailyTime`: `2024-04-02T07:24:00Z` → `2024年04月02日 周二 07:24` (for MemSim's prompts). */
export function formatMemDailyTime(at: string): string {
  const d = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  const weekday = ZH_WEEKDAYS[(d.getUTCDay() + 6) % 7];
  return `${d.getUTCFullYear()}年${two(d.getUTCMonth() + 1)}月${two(d.getUTCDate())}日 周${weekday} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}
