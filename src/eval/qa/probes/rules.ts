/**
 * Leniency probes generated offline: for a question and its gold answer, two known-wrong answers (no LLM involved).
 *
 * "specific" — a plausible wrong value of the right kind, by the first rule that applies:
 *   1. `yes-no`: a yes/no gold answer flipped (Yes → No; 是 → 不是, 有 → 没有, and back);
 *   2. `date-shift`: a date moved: the first month name four months on (May → September), else a weekday three days
 *      on, else a four-digit year one back (2023 → 2022); Chinese `N月` / `N年` likewise;
 *   3. `number-shift`: every number in the answer plus two (digits), else the first English number word (one–twenty)
 *      or Chinese numeral (一–八) two on — outside the off-by-one LongMemEval's temporal prompt forgives;
 *   4. `neighbour`: the gold answer of another question of the same AdaptMR type (same conversation first, when
 *      ids name one), the first in id order after this one that shares no content token with this gold answer — a
 *      specific, well-formed answer to a different question.
 * "vague" — on topic, no answer, from the question's own words by its question word: a date coarsened to its year
 *   ("Sometime in 2023"), a quantity as "A few", a person as "Someone close to <name>", a place, a reason, "A <noun>
 *   that <name> mentioned" for "what/which <noun>", and a hedge for yes/no questions; Chinese questions by 什么时候 /
 *   多少 / 几 / 谁 / 哪里 / 为什么 / 什么<noun> likewise.
 * A benchmark whose judge checks a link to evidence rather than a value (LoCoMo-Plus's cue) asks for the neighbour rule
 * only (`rules: neighbour`): a value edited in the cue would still be linked to it.
 * Guards: a probe is dropped when its normalised text equals the gold answer's, when a neighbour answer shares a
 * content token with the gold answer, or when a vague probe contains every content token of the gold answer. Abstention questions (the right answer is "not answerable") get no vague probe: saying
 * nothing specific is the right answer there. docs/qa-and-judges.md lists the rules with examples.
 */
import { contentTokens, hasCjk, normalised, overlaps } from './text.ts';
import { CHINESE_DIGITS, ENGLISH_NUMBER_WORDS } from '../../../core/number-words.ts';

export type ProbeKind = 'specific' | 'vague';
export const PROBE_KINDS: readonly ProbeKind[] = ['specific', 'vague'];

export interface ProbeQuestion {
  questionId: string;
  question: string;
  gold: string;
  adaptType: string;
  isAbstention: boolean;
}

export interface Probe {
  kind: ProbeKind;
  answer: string;
  /** The rule that made it (`rules:<name>`). */
  source: string;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
// Capitalised only, so "may" the verb is not a month.
const MONTH_RE = new RegExp(`\\b(${MONTHS.join('|')}|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\b\\.?`, 'u');
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const WEEKDAY_RE = new RegExp(`\\b(${WEEKDAYS.join('|')})\\b`, 'u');
const NUMBER_WORDS: readonly string[] = ENGLISH_NUMBER_WORDS;
const NUMBER_WORD_RE = new RegExp(`\\b(${NUMBER_WORDS.slice(0, 21).join('|')})\\b`, 'iu');
const CN_DIGITS = CHINESE_DIGITS;

function sameCase(template: string, word: string): string {
  return template[0] === template[0]?.toUpperCase() ? word[0]!.toUpperCase() + word.slice(1) : word.toLowerCase();
}

function yesNo(gold: string): string | undefined {
  const g = gold.trim();
  const en = /^(yes|no)\b/iu.exec(g);
  if (en) return en[1]!.toLowerCase() === 'yes' ? 'No.' : 'Yes.';
  if (/^(不是|没有|不)/u.test(g)) return g.startsWith('没有') ? '有。' : '是。';
  if (/^(是|有|对)/u.test(g)) return g.startsWith('有') ? '没有。' : '不是。';
  return undefined;
}

function dateShift(gold: string): string | undefined {
  const month = MONTH_RE.exec(gold);
  if (month) {
    const full = month[1]!.toLowerCase();
    const i = MONTHS.findIndex((m) => m.toLowerCase() === full || m.slice(0, 3).toLowerCase() === full);
    const next = MONTHS[(i + 4) % 12]!;
    return gold.replace(MONTH_RE, sameCase(month[1]!, MONTHS.includes(month[1]!) ? next : next.slice(0, 3)));
  }
  const day = WEEKDAY_RE.exec(gold);
  if (day) {
    const i = WEEKDAYS.findIndex((d) => d.toLowerCase() === day[1]!.toLowerCase());
    return gold.replace(WEEKDAY_RE, sameCase(day[1]!, WEEKDAYS[(i + 3) % 7]!));
  }
  const cnMonth = /(\d{1,2})月/u.exec(gold);
  if (cnMonth) return gold.replace(/(\d{1,2})月/u, `${((Number(cnMonth[1]) + 3) % 12) + 1}月`);
  if (/(19|20)\d{2}/u.test(gold)) return gold.replace(/(19|20)\d{2}/u, (y) => String(Number(y) - 1));
  return undefined;
}

function numberShift(gold: string): string | undefined {
  // Every number moves, so a gold answer that repeats its value ("19 days ago. 20 days … is also acceptable") stays wrong.
  if (/\d/u.test(gold)) return gold.replace(/\d+(\.\d+)?/gu, (n) => String(Number(n) + 2));
  const word = NUMBER_WORD_RE.exec(gold);
  if (word) {
    const i = NUMBER_WORDS.indexOf(word[1]!.toLowerCase());
    return gold.replace(NUMBER_WORD_RE, sameCase(word[1]!, NUMBER_WORDS[i + 2]!));
  }
  const cn = new RegExp(`[${CN_DIGITS.slice(1, 9)}]`, 'u').exec(gold);
  if (cn) return gold.replace(cn[0], CN_DIGITS[CN_DIGITS.indexOf(cn[0]) + 2]!);
  return undefined;
}

/** The conversation of a LoCoMo-style id (`conv-26:q3` → `conv-26`), or ''. */
function groupOf(id: string): string {
  const m = /^(.+):q\d+$/u.exec(id);
  return m ? m[1]! : '';
}

function neighbour(q: ProbeQuestion, pool: readonly ProbeQuestion[]): string | undefined {
  const candidates = pool.filter(
    (p) =>
      p.questionId !== q.questionId &&
      !p.isAbstention &&
      p.gold.trim() !== '' &&
      (q.isAbstention || p.adaptType === q.adaptType),
  );
  const ordered = [...candidates].sort((a, b) =>
    a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0,
  );
  const after = [
    ...ordered.filter((p) => p.questionId > q.questionId),
    ...ordered.filter((p) => p.questionId < q.questionId),
  ];
  const group = groupOf(q.questionId);
  const ranked = group
    ? [...after.filter((p) => groupOf(p.questionId) === group), ...after.filter((p) => groupOf(p.questionId) !== group)]
    : after;
  return ranked.find((p) => !overlaps(p.gold, q.gold) && normalised(p.gold) !== normalised(q.gold))?.gold;
}

/** The specific-but-wrong probe of a question, or undefined when no rule gives a safe one. */
export function specificWrong(
  q: ProbeQuestion,
  pool: readonly ProbeQuestion[],
  rules: 'all' | 'neighbour' = 'all',
): Probe | undefined {
  const gold = q.gold.trim();
  const attempts: [string, () => string | undefined][] =
    q.isAbstention || gold === '' || rules === 'neighbour'
      ? [['neighbour', () => neighbour(q, pool)]]
      : [
          ['yes-no', () => yesNo(gold)],
          ['date-shift', () => dateShift(gold)],
          ['number-shift', () => numberShift(gold)],
          ['neighbour', () => neighbour(q, pool)],
        ];
  for (const [rule, make] of attempts) {
    const answer = make();
    if (answer === undefined || normalised(answer) === normalised(gold)) continue;
    // The neighbour rule must share nothing with the gold; the edit rules change one value and keep the rest.
    if (rule === 'neighbour' && gold !== '' && overlaps(answer, gold)) continue;
    return { kind: 'specific', answer, source: `rules:${rule}` };
  }
  return undefined;
}

/** A capitalised name from the question (not its first word), possessive dropped. */
function nameIn(question: string): string | undefined {
  const words = question
    .replace(/[?？.!,;:]/gu, ' ')
    .split(/\s+/u)
    .filter(Boolean);
  for (const w of words.slice(1)) {
    const bare = w.replace(/['’]s$/u, '');
    if (/^\p{Lu}[\p{L}-]+$/u.test(bare) && !WEEKDAYS.includes(bare) && !MONTHS.includes(bare)) return bare;
  }
  return undefined;
}

function vagueEnglish(question: string, gold: string): [string, string] {
  const q = question.trim();
  const lower = q.toLowerCase();
  // A question in the first person (LongMemEval's user asking the assistant) is about "you".
  const name = /\b(i|my|me|i'm|i’ve|i've)\b/u.test(lower) ? 'you' : nameIn(q);
  const who = name ?? 'them';
  const year = /\b(19|20)\d{2}\b/u.exec(gold)?.[0];
  if (/^(when|what (date|day|year|month|time))\b/u.test(lower) || /\bhow long ago\b/u.test(lower)) {
    return year && normalised(gold) !== year
      ? [`Sometime in ${year}`, 'date-coarsen']
      : ['At some point, a while back', 'when'];
  }
  if (/^how (many|much)\b/u.test(lower)) return ['A few', 'quantity'];
  if (/^how (long|often)\b/u.test(lower)) return ['For a while, now and then', 'duration'];
  if (/^(who|whom|whose)\b/u.test(lower)) return [`Someone close to ${who}`, 'who'];
  if (/^where\b/u.test(lower)) return [`A place ${name ?? 'they'} had mentioned before`, 'where'];
  if (/^why\b/u.test(lower)) return [`Because of something that mattered to ${who}`, 'why'];
  const noun =
    /^(?:what|which)\s+(?:kind of |type of |sort of )?([a-z]+)\s+(?:did|does|do|is|are|was|were|has|have|had|can|could|would|will)\b/u.exec(
      lower,
    );
  if (noun) return [`A ${noun[1]} that ${name ?? 'they'} mentioned`, 'what-noun'];
  if (/^(did|does|do|is|are|was|were|has|have|had|can|could|would|will|should)\b/u.test(lower))
    return ['It is hard to say; it depends on how you look at it', 'yes-no-hedge'];
  if (/^how\b/u.test(lower)) return ['In their own way, as things went', 'how'];
  return [`Something ${name ?? 'they'} talked about`, 'topic'];
}

function vagueChinese(question: string, gold: string): [string, string] {
  const year = /(\d{4})年/u.exec(gold)?.[1];
  if (/什么时候|哪天|哪一天|何时|哪年|几月/u.test(question))
    return year && normalised(gold) !== year ? [`${year}年的某个时候`, 'date-coarsen'] : ['之前的某个时候', 'when'];
  if (/多少|几/u.test(question)) return ['有一些吧', 'quantity'];
  if (/谁/u.test(question)) return ['身边的某个人', 'who'];
  if (/哪里|哪儿|在哪/u.test(question)) return ['以前提到过的某个地方', 'where'];
  if (/为什么|为何/u.test(question)) return ['因为一些个人原因', 'why'];
  const noun = /什么([\u4e00-\u9fff]{1,2})/u.exec(question);
  if (noun && !/^[吗呢吧啊]/u.test(noun[1]!)) return [`之前提到过的某个${noun[1]}`, 'what-noun'];
  return ['之前聊到过的某件事', 'topic'];
}

/** The vague-but-topical probe of a question, or undefined (abstention questions; a probe that would answer). */
export function vagueTopical(q: ProbeQuestion): Probe | undefined {
  if (q.isAbstention) return undefined;
  const [answer, rule] = hasCjk(q.question) ? vagueChinese(q.question, q.gold) : vagueEnglish(q.question, q.gold);
  if (normalised(answer) === normalised(q.gold)) return undefined;
  const gold = contentTokens(q.gold);
  const mine = contentTokens(answer);
  if (gold.size > 0 && [...gold].every((t) => mine.has(t))) return undefined;
  return { kind: 'vague', answer, source: `rules:${rule}` };
}

/** Both probes of a question (each may be missing); `rules: neighbour` keeps the specific probe to another gold. */
export function probesFor(
  q: ProbeQuestion,
  pool: readonly ProbeQuestion[],
  rules: 'all' | 'neighbour' = 'all',
): Probe[] {
  return [specificWrong(q, pool, rules), vagueTopical(q)].filter((p): p is Probe => p !== undefined);
}
