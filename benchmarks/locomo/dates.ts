/** LoCoMo's time format. */
import { iso, MONTHS } from '../../src/data/dates.ts';

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
