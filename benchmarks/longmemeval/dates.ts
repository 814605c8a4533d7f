/** LongMemEval's time format. */
import { iso } from '../../src/data/dates.ts';

/** LongMemEval: `2023/05/30 (Tue) 23:40` → `2023-05-30T23:40:00Z`; undefined when the text does not match. */
export function parseLongMemEvalDate(text: string): string | undefined {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) \([A-Za-z]{3}\) (\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  return iso(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
}
