/**
 * Resolves the time expression of a question to a window of days, against the question's own date (`askedAt`).
 *
 * English (and Chinese absolute dates such as 2023年5月 / 五月) go through chrono-node 2.10; chrono's Chinese parser
 * lacks relative expressions like 上个月, 上周, 去年, 两周前, and weekdays (上周三, 周五), so a small rule table below
 * covers them, and full dates with the weekday written after them (`2024年04月12日 周五`, as MemSim writes them). Windows are at
 * DAY precision on purpose: LongMemEval's haystack sessions can be timestamped later on the same day than the
 * question (docs/datasets.md), so a minute-level filter would drop evidence.
 *
 * Width of a window, from what the expression pins down:
 * - an explicit range ("from March to May") → its start and end days;
 * - a calendar month / year ("in May", "last month", "this year", 上个月, 去年) → that whole month / year; a month
 *   without a year is the latest such month not after the question date;
 * - a day ("yesterday", "last Saturday", "on May 3rd") → that day;
 * - an approximate distance back ("two weeks ago", "a month ago", 三天前) → a tolerance around the resolved day:
 *   ±1 day for days, ±3 for weeks (one week wide), ±15 for months, ±182 for years (half the unit, so the window is
 *   one unit wide).
 * - a span back from the question ("in the past three months", "the last 2 weeks") → from N units before the question
 *   day to the question day;
 * - "before X" / "until X" → everything up to the day before X; "after X" → the day after X up to the question;
 *   "since X" → X up to the question.
 * Windows that start after the question date are ignored (questions ask about the past). Several expressions →
 * the span covering all of them.
 */
import { createRequire } from 'node:module';
import type * as Chrono from 'chrono-node';
import { chineseDigitValues, englishNumberValues, englishNumberWords } from '../core/number-words.ts';

// chrono-node takes 0.1–0.5 s to load; it is required on the first time expression, so runs that never read dates
// (BM25, embeddings) do not pay for it.
let chronoLib: typeof Chrono | undefined;
const chrono = (): typeof Chrono => (chronoLib ??= createRequire(import.meta.url)('chrono-node') as typeof Chrono);

export interface TimeWindow {
  /** Inclusive `YYYY-MM-DD` bounds. */
  startDay: string;
  endDay: string;
  expressions: string[];
}

const DAY_MS = 86_400_000;

function ymd(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
function dayStart(iso: string): number {
  return Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
}
function monthWindow(y: number, m0: number): [number, number] {
  return [Date.UTC(y, m0, 1), Date.UTC(y, m0 + 1, 0)];
}
function yearWindow(y: number): [number, number] {
  return [Date.UTC(y, 0, 1), Date.UTC(y, 11, 31)];
}

const UNIT_TOLERANCE: Record<string, number> = { day: 1, week: 3, month: 15, year: 182 };

/** The days one parsed date component pins down (month/year granularity when the day is not given). */
function componentWindow(
  c: Chrono.ParsedComponents,
  asked: number,
  agoUnit: string | undefined,
): [number, number] | undefined {
  const day = dayStart(c.date().toISOString());
  if (c.isCertain('day') || c.isCertain('weekday')) {
    const tol = agoUnit ? (UNIT_TOLERANCE[agoUnit] ?? 0) : 0;
    return [day - tol * DAY_MS, day + tol * DAY_MS];
  }
  if (c.isCertain('month')) {
    const m0 = (c.get('month') ?? 1) - 1;
    let y = c.isCertain('year') ? (c.get('year') ?? 0) : new Date(asked).getUTCFullYear();
    if (!c.isCertain('year') && Date.UTC(y, m0, 1) > asked) y -= 1;
    return monthWindow(y, m0);
  }
  if (c.isCertain('year')) return yearWindow(c.get('year') ?? 0);
  return undefined;
}

/** What chrono resolved, turned into a day window per the rules in the header. */
function chronoWindow(result: Chrono.ParsedResult, asked: number): [number, number] | undefined {
  const text = result.text.toLowerCase();
  const ago = /\b(day|week|month|year)s?\b.*\bago\b|\b(?:last|past) (week)\b/u.exec(text);
  const agoUnit = ago ? (ago[1] ?? ago[2]) : undefined;
  const start = componentWindow(result.start, asked, agoUnit);
  if (!start) return undefined;
  if (!result.end) return start;
  const end = componentWindow(result.end, asked, agoUnit);
  return end ? [start[0], Math.max(start[1], end[1])] : start;
}

const FAR_PAST = Date.UTC(1900, 0, 1);
const EN_NUM: Record<string, number> = { a: 1, an: 1, ...englishNumberValues(1, 10), few: 3, couple: 2 };
/** "in the past three months", "over the last 2 weeks", "the past year": a span ending at the question date
 * (chrono reads these as the single unit N back). */
const EN_SPAN = new RegExp(
  `\\b(past|last)\\s+(\\d+|a|an|${englishNumberWords(1, 10).join('|')}|few|couple)\\s+(?:of\\s+)?(days?|weeks?|months?|years?)\\b`,
  'iu',
);

const ZH_NUM: Record<string, number> = { ...chineseDigitValues(1, 10), 两: 2, 半: 0.5 };

/** 1–12 written with digits or Chinese numerals (三, 十, 十二). */
function zhMonthNumber(text: string): number {
  if (/^\d+$/u.test(text)) return Number(text);
  if (text.startsWith('十')) return 10 + (ZH_NUM[text.slice(1)] ?? 0);
  return ZH_NUM[text] ?? 1;
}
const ZH_YEAR_OFFSET: Record<string, number> = { 今年: 0, 去年: 1, 前年: 2 };
/** Days after Monday of 周一 … 周日 (天 is the spoken Sunday: 星期天). */
const ZH_WEEKDAY_OFFSET: Record<string, number> = { 一: 0, 二: 1, 三: 2, 四: 3, 五: 4, 六: 5, 日: 6, 天: 6 };

/** Chinese relative expressions chrono.zh does not parse. Each returns a window given the question date. A question
 * that asks *for* a date (几月几日, 几号, 什么时候) names no window: none of these match it. */
const ZH_RULES: { re: RegExp; window: (asked: Date, m: RegExpExecArray) => [number, number] }[] = [
  // A full date, with the weekday written after it (2024年04月12日 周五): that day. The weekday is not
  // checked here (the data loader checks the dataset's own times); it must not be read again as a bare weekday.
  {
    re: /(\d{4})年(\d{1,2})月(\d{1,2})[日号](?:\s*(?:周|星期|礼拜)[一二三四五六日天])?/u,
    window: (_d, m) => {
      const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
      return [t, t];
    },
  },
  // A weekday of last / next / this week (上周三, 下星期五, 这周一) or a bare one (周三: the latest on or before the
  // question day): that day. Before the week rules, which would take the whole week. Weeks run Monday–Sunday.
  {
    re: /(上|下|这|本)?(个)?(周|星期|礼拜)([一二三四五六日天])/u,
    window: (d, m) => {
      const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      const monday = today - ((d.getUTCDay() + 6) % 7) * DAY_MS;
      const offset = ZH_WEEKDAY_OFFSET[m[4]!]!;
      const week = m[1] === '上' ? -7 : m[1] === '下' ? 7 : 0;
      let t = monday + (week + offset) * DAY_MS;
      if (m[1] === undefined && t > today) t -= 7 * DAY_MS;
      return [t, t];
    },
  },
  // 今年三月 / 去年12月: that month of that year (before the bare year rules, which would take the whole year).
  {
    re: /(今年|去年|前年)(\d{1,2}|十[一二]?|[一二三四五六七八九])月份?/u,
    window: (d, m) => monthWindow(d.getUTCFullYear() - ZH_YEAR_OFFSET[m[1]!]!, zhMonthNumber(m[2]!) - 1),
  },
  { re: /上个?月/u, window: (d) => monthWindow(d.getUTCFullYear(), d.getUTCMonth() - 1) },
  { re: /(这个|本)月/u, window: (d) => monthWindow(d.getUTCFullYear(), d.getUTCMonth()) },
  { re: /前年/u, window: (d) => yearWindow(d.getUTCFullYear() - 2) },
  { re: /去年/u, window: (d) => yearWindow(d.getUTCFullYear() - 1) },
  { re: /今年/u, window: (d) => yearWindow(d.getUTCFullYear()) },
  {
    // Calendar weeks run Monday–Sunday (the Chinese convention).
    re: /(上|这|本)(个)?(周|星期|礼拜)/u,
    window: (d, m) => {
      const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY_MS;
      const start = m[1] === '上' ? monday - 7 * DAY_MS : monday;
      return [start, start + 6 * DAY_MS];
    },
  },
  {
    re: /(\d+|[一两二三四五六七八九十半])(个)?(天|日|周|星期|礼拜|月|年)(以)?前/u,
    window: (d, m) => {
      const n = /^\d+$/u.test(m[1]!) ? Number(m[1]) : (ZH_NUM[m[1]!] ?? 1);
      const unit = m[3] === '天' || m[3] === '日' ? 'day' : m[3] === '月' ? 'month' : m[3] === '年' ? 'year' : 'week';
      const base = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      const back = unit === 'day' ? n : unit === 'week' ? 7 * n : unit === 'month' ? 30.44 * n : 365.25 * n;
      const center = base - Math.round(back) * DAY_MS;
      const tol = UNIT_TOLERANCE[unit]! * DAY_MS;
      return [center - tol, center + tol];
    },
  },
  {
    re: /前天/u,
    window: (d) => {
      const t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - 2 * DAY_MS;
      return [t, t];
    },
  },
  {
    re: /昨天/u,
    window: (d) => {
      const t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - DAY_MS;
      return [t, t];
    },
  },
  {
    re: /今天/u,
    window: (d) => {
      const t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      return [t, t];
    },
  },
];

export function findTimeWindow(text: string, askedAt: string): TimeWindow | undefined {
  const asked = Date.parse(askedAt);
  if (Number.isNaN(asked)) return undefined;
  const askedDay = dayStart(askedAt);
  const spans: [number, number][] = [];
  const expressions: string[] = [];
  const ref = { instant: new Date(asked), timezone: 0 };
  if (/\p{Script=Han}/u.test(text)) {
    let rest = text;
    for (const rule of ZH_RULES) {
      const m = rule.re.exec(rest);
      if (!m) continue;
      spans.push(rule.window(new Date(asked), m));
      expressions.push(m[0]);
      rest = rest.replace(m[0], ' ');
    }
    for (const r of chrono().zh.hans.parse(rest, ref)) {
      const w = chronoWindow(r, asked);
      if (w) {
        spans.push(w);
        expressions.push(r.text);
      }
    }
  } else {
    let rest = text;
    const span = EN_SPAN.exec(rest);
    if (span) {
      const n = /^\d+$/u.test(span[2]!) ? Number(span[2]) : (EN_NUM[span[2]!.toLowerCase()] ?? 1);
      const unit = span[3]!.toLowerCase().replace(/s$/u, '');
      const back = unit === 'day' ? n : unit === 'week' ? 7 * n : unit === 'month' ? 30.44 * n : 365.25 * n;
      spans.push([askedDay - Math.round(back) * DAY_MS, askedDay]);
      expressions.push(span[0]);
      rest = rest.replace(span[0], ' ');
    }
    for (const r of chrono().casual.parse(rest, ref)) {
      let w = chronoWindow(r, asked);
      // "before X" / "after X" / "since X": the window is the side of X the question points at.
      const lead = /\b(before|after|since|until|prior to)\s*$/iu.exec(rest.slice(0, r.index))?.[1]?.toLowerCase();
      if (w && lead)
        w =
          lead === 'before' || lead === 'until' || lead === 'prior to'
            ? [FAR_PAST, w[0] - DAY_MS]
            : [w[1] + (lead === 'after' ? DAY_MS : 0), askedDay];
      if (w) {
        spans.push(w);
        expressions.push(lead ? `${lead} ${r.text}` : r.text);
      }
    }
  }
  const past = spans.map((s, i) => ({ s, e: expressions[i]! })).filter(({ s }) => s[0] <= askedDay);
  if (past.length === 0) return undefined;
  const start = Math.min(...past.map(({ s }) => s[0]));
  const end = Math.max(...past.map(({ s }) => s[1]));
  return { startDay: ymd(start), endDay: ymd(end), expressions: past.map(({ e }) => e) };
}

export function inWindow(at: string, window: TimeWindow): boolean {
  const day = at.slice(0, 10);
  return day >= window.startDay && day <= window.endDay;
}
