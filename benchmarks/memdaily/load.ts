/**
 * MemDaily (MemSim, nuster1128/MemSim@db9d5d5 `data_generation/final_dataset/messages_and_QAs/*.json`, Chinese): one
 * trajectory (an element of `<NN>_<type>_<entity>.json`) → one normalised `Instance` per question (always one).
 *
 * Choices (docs/datasets.md §4.2):
 * - items whose question is `[ERRORQ]` or whose answer is `[ERRORA]` are dropped, as upstream's `post_process.py`
 *   does when it builds the combined file (46 of 3,000), and reported;
 * - a message is a turn (role user: every message is the user's own statement), id `m<mid>`, dated by its own
 *   `time` (`2024年04月02日 周二 07:24`, weekday checked against the date); sessions are the runs of consecutive
 *   messages on one calendar day, in list order, id `s<n>`. Upstream streams messages in list order, which is not
 *   time order in 189 trajectories: the order is kept and those trajectories reported, as are the 20 questions asked
 *   before the last message. `place` (one city per trajectory) is not indexed;
 * - `target_step_id` (evidence mids) → evidence turns; the question's `time` → `askedAt`; `choices` → `Query.choices`
 *   (the reader's alone; MemSim retrieves with the question only) and `ground_truth` → `gold.correctChoice`;
 * - question id `<file stem>:t<tid>` (each trajectory is its own haystack); native type = the file's question type;
 *   AdaptMR type from types.ts `memDailyType`.
 */
import { basename } from 'node:path';
import { z } from 'zod';
import type { CatalogEntry, DataIssue } from '../../src/core/dataset-records.ts';
import { InputError } from '../../src/core/errors.ts';
import type { Instance, Session, Turn } from '../../src/core/types.ts';
import { parseMemDailyTime } from './dates.ts';
import { memDailyType } from './types.ts';

const FILE_NAME = /^(\d{2})_([a-z_]+)_(events|hybrid|items|places|roles)\.json$/u;

const MessageSchema = z.looseObject({
  mid: z.number().int().nonnegative(),
  message: z.string(),
  time: z.string(),
  place: z.string().optional(),
});
const QaSchema = z.looseObject({
  qid: z.number().int().nonnegative().optional(),
  question: z.string(),
  answer: z.string().nullable(),
  target_step_id: z.array(z.number().int()),
  choices: z.union([z.record(z.string(), z.string()), z.string()]),
  ground_truth: z.string(),
  time: z.string(),
});
const TrajectorySchema = z.looseObject({
  tid: z.number().int().nonnegative(),
  message_list: z.array(MessageSchema),
  question_list: z.array(z.unknown()).min(1),
});
const HeadSchema = z.looseObject({ tid: z.number().int().nonnegative(), question_list: z.array(z.unknown()).min(1) });
const QaHeadSchema = z.looseObject({ question: z.string(), answer: z.string().nullable().optional() });

/** The question type and entity scenario a MemDaily file name names. */
export function memDailyFileKind(file: string): { stem: string; qaType: string; entity: string } {
  const name = basename(file);
  const m = FILE_NAME.exec(name);
  if (!m)
    throw new InputError('is not a MemDaily file name (<NN>_<type>_<entity>.json, e.g. 01_simple_events.json)', file);
  return { stem: name.replace(/\.json$/u, ''), qaType: m[2]!, entity: m[3]! };
}

function zodFail(file: string, index: number, error: z.ZodError, prefix = ''): never {
  const first = error.issues[0];
  throw new InputError(
    `field \`${prefix}${first?.path.join('.') ?? ''}\`: ${first?.message ?? 'invalid'}`,
    `${file} (element ${index})`,
  );
}

/** Upstream's error markers: such an item has no usable question (`post_process.py` drops it). */
function isErrorItem(qa: { question: string; answer?: string | null | undefined }): boolean {
  return qa.question === '[ERRORQ]' || qa.answer === '[ERRORA]';
}

function questionIdOf(stem: string, tid: number, qid: number, many: boolean): string {
  return many ? `${stem}:t${tid}.${qid}` : `${stem}:t${tid}`;
}

/** Catalog entries of one trajectory (error items left out), from its question alone. */
export function memDailyCatalogEntries(raw: unknown, file: string, index: number): CatalogEntry[] {
  const { stem, qaType } = memDailyFileKind(file);
  const head = HeadSchema.safeParse(raw);
  if (!head.success) zodFail(file, index, head.error);
  const many = head.data.question_list.length > 1;
  const out: CatalogEntry[] = [];
  head.data.question_list.forEach((q, i) => {
    const parsed = QaHeadSchema.safeParse(q);
    if (!parsed.success) zodFail(file, index, parsed.error, `question_list.${i}.`);
    if (isErrorItem(parsed.data)) return;
    const questionId = questionIdOf(stem, head.data.tid, i, many);
    const adaptType = memDailyType(qaType, parsed.data.answer);
    if (!adaptType) throw new InputError(`unknown question type "${qaType}" in the file name`, file);
    out.push({ questionId, nativeType: qaType, adaptType, isAbstention: false, haystack: `${stem}:t${head.data.tid}` });
  });
  return out;
}

type Report = (questionId: string | undefined, field: string, problem: string, action: DataIssue['action']) => void;

/** Normalises one trajectory; `keep` filters questions; defects go to `issues`. */
export function normaliseMemDaily(
  raw: unknown,
  file: string,
  index: number,
  dataset: string,
  issues: DataIssue[],
  keep?: (c: CatalogEntry) => boolean,
): Instance[] {
  const { stem, qaType } = memDailyFileKind(file);
  const parsed = TrajectorySchema.safeParse(raw);
  if (!parsed.success) zodFail(file, index, parsed.error);
  const { tid, message_list: messages, question_list: questions } = parsed.data;
  const where = `${file} (tid ${tid})`;
  const many = questions.length > 1;
  const catalog = new Map(memDailyCatalogEntries(raw, file, index).map((c) => [c.questionId, c]));
  const issue: Report = (questionId, field, problem, action) => {
    issues.push({ file, ...(questionId ? { questionId } : {}), field: `${stem} tid ${tid}.${field}`, problem, action });
  };
  reportErrorItems(questions, (i) => questionIdOf(stem, tid, i, many), issue);
  const wanted = [...catalog.values()].filter((c) => !keep || keep(c));
  if (wanted.length === 0) return [];
  const chat = haystackOf(messages, where, issue);
  const out: Instance[] = [];
  questions.forEach((rawQa, i) => {
    const questionId = questionIdOf(stem, tid, i, many);
    const entry = catalog.get(questionId);
    if (!entry || (keep && !keep(entry))) return;
    const p = QaSchema.safeParse(rawQa);
    if (!p.success) zodFail(file, index, p.error, `question_list.${i}.`);
    const q = { qa: p.data, i, questionId, entry, where };
    out.push(questionInstance(q, { dataset, qaType, chat, issue }));
  });
  return out;
}

/** Dropped error items are reported whether or not the caller keeps the rest. */
function reportErrorItems(questions: readonly unknown[], idOf: (i: number) => string, issue: Report): void {
  questions.forEach((q, i) => {
    const head = QaHeadSchema.safeParse(q);
    if (head.success && isErrorItem(head.data)) {
      const markers = [
        head.data.question === '[ERRORQ]' ? 'question "[ERRORQ]"' : '',
        head.data.answer === '[ERRORA]' ? 'answer "[ERRORA]"' : '',
      ].filter(Boolean);
      issue(
        idOf(i),
        `question_list[${i}]`,
        `${markers.join(' and ')}: an upstream generation error; dropped as MemSim's post_process.py drops it`,
        'dropped',
      );
    }
  });
}

interface Chat {
  haystack: Session[];
  mids: Set<number>;
  lastAt: string;
  sessionOfTurn: Map<string, string>;
}

/** Messages: each its own time; sessions = runs of consecutive messages on one day (list order kept). */
function haystackOf(messages: z.infer<typeof MessageSchema>[], where: string, issue: Report): Chat {
  const haystack: Session[] = [];
  const mids = new Set<number>();
  let previous = '';
  let outOfOrder = false;
  messages.forEach((m, i) => {
    const at = messageTime(m, i, where, issue);
    mids.add(m.mid);
    if (previous && at < previous) outOfOrder = true;
    previous = at;
    let session = haystack.at(-1);
    if (!session || session.at.slice(0, 10) !== at.slice(0, 10)) {
      session = { id: `s${haystack.length + 1}`, at, turns: [] };
      haystack.push(session);
    }
    const turn: Turn = {
      id: `m${m.mid}`,
      sessionId: session.id,
      index: session.turns.length,
      role: 'user',
      text: m.message,
      at,
    };
    session.turns.push(turn);
  });
  if (haystack.length === 0) throw new InputError('field `message_list`: empty', where);
  if (outOfOrder)
    issue(
      undefined,
      'message_list',
      'messages are not in time order; list order kept (upstream streams them in list order)',
      'kept',
    );
  const lastAt = [...haystack.flatMap((s) => s.turns.map((t) => t.at))].sort().at(-1)!;
  const sessionOfTurn = new Map(haystack.flatMap((s) => s.turns.map((t) => [t.id, s.id] as const)));
  return { haystack, mids, lastAt, sessionOfTurn };
}

/** A message's time, checked (its weekday against its date) and its mid against its position. */
function messageTime(m: z.infer<typeof MessageSchema>, i: number, where: string, issue: Report): string {
  const t = parseMemDailyTime(m.time);
  if (!t)
    throw new InputError(
      `field \`message_list.${i}.time\`: bad time "${m.time}" (expected e.g. "2024年04月02日 周二 07:24")`,
      where,
    );
  if (!t.weekdayAgrees)
    issue(
      undefined,
      `message_list[${i}].time`,
      `"${m.time}": the weekday does not match the date; the date is kept`,
      'kept',
    );
  if (m.mid !== i)
    throw new InputError(`field \`message_list.${i}.mid\`: ${m.mid} is not the message's position ${i}`, where);
  return t.at;
}

interface QuestionAt {
  qa: z.infer<typeof QaSchema>;
  i: number;
  questionId: string;
  entry: CatalogEntry;
  where: string;
}

/** One question of a trajectory as an `Instance` over the trajectory's haystack. */
function questionInstance(
  { qa, i, questionId, entry, where }: QuestionAt,
  { dataset, qaType, chat, issue }: { dataset: string; qaType: string; chat: Chat; issue: Report },
): Instance {
  const asked = parseMemDailyTime(qa.time);
  if (!asked) throw new InputError(`field \`question_list.${i}.time\`: bad time "${qa.time}"`, where);
  if (!asked.weekdayAgrees)
    issue(
      questionId,
      `question_list[${i}].time`,
      `"${qa.time}": the weekday does not match the date; the date is kept`,
      'kept',
    );
  if (asked.at < chat.lastAt)
    issue(
      questionId,
      `question_list[${i}].time`,
      `asked at ${qa.time}, before the last message (${chat.lastAt.slice(0, 16)}); kept`,
      'kept',
    );
  const evidenceTurnIds: string[] = [];
  for (const step of qa.target_step_id) {
    if (!chat.mids.has(step))
      issue(questionId, `question_list[${i}].target_step_id`, `${step} names no message`, 'dropped');
    else if (!evidenceTurnIds.includes(`m${step}`)) evidenceTurnIds.push(`m${step}`);
  }
  const answer = qa.answer ?? '';
  const inst: Instance = {
    dataset,
    query: { id: questionId, text: qa.question, askedAt: asked.at },
    haystackId: questionId,
    haystack: chat.haystack,
    gold: {
      nativeType: qaType,
      type: entry.adaptType,
      isAbstention: false,
      evidenceSessionIds: [...new Set(evidenceTurnIds.map((t) => chat.sessionOfTurn.get(t)!))],
      evidenceTurnIds,
      answer,
    },
  };
  withChoices(inst, qa, i, issue);
  return inst;
}

/** The question's choices (the reader's alone) and the correct letter, or why it is answered free-form only. */
function withChoices(inst: Instance, qa: z.infer<typeof QaSchema>, i: number, issue: Report): void {
  const questionId = inst.query.id;
  if (typeof qa.choices !== 'object') {
    issue(
      questionId,
      `question_list[${i}].choices`,
      `choices are "${qa.choices}"; the question is answered free-form only`,
      'kept',
    );
    return;
  }
  inst.query.choices = qa.choices;
  if (qa.choices[qa.ground_truth] === undefined) {
    issue(
      questionId,
      `question_list[${i}].ground_truth`,
      `"${qa.ground_truth}" is not one of the choices; multiple choice cannot be scored`,
      'kept',
    );
    return;
  }
  inst.gold.correctChoice = qa.ground_truth;
  if (qa.choices[qa.ground_truth] !== qa.answer) {
    issue(
      questionId,
      `question_list[${i}].choices`,
      `choice ${qa.ground_truth} ("${qa.choices[qa.ground_truth]}") differs from the answer ("${inst.gold.answer}")`,
      'kept',
    );
  }
}
