/**
 * LongMemEval item → normalised `Instance` (one question with its own haystack). Field names, turn ids and
 * evidence follow the official code (GitHub xiaowu0162/LongMemEval):
 * - turn id `<session_id>_<i+1>`, i the 0-based index over ALL turns of the session, both roles
 *   (`src/retrieval/run_retrieval.py`, `process_item_flat_index`);
 * - turn evidence = turns with `has_answer: true` (a missing key is false; S filler sessions have none);
 * - session evidence = `answer_session_ids`; abstention = `question_id` ending `_abs`;
 * - superseded evidence of knowledge updates: supersession.ts.
 */
import { z } from 'zod';
import type { CatalogEntry, DataIssue } from '../../src/core/dataset-records.ts';
import { InputError } from '../../src/core/errors.ts';
import type { Instance, Session, Turn } from '../../src/core/types.ts';
import { parseLongMemEvalDate } from './dates.ts';
import { longMemEvalSuperseded } from './supersession.ts';
import { longMemEvalType } from './types.ts';

const TurnSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  has_answer: z.boolean().optional(),
});

export const LongMemEvalHeadSchema = z.object({
  question_id: z.string().min(1),
  question_type: z.string(),
});

export const LongMemEvalItemSchema = LongMemEvalHeadSchema.extend({
  question: z.string(),
  answer: z.union([z.string(), z.number()]),
  question_date: z.string(),
  haystack_session_ids: z.array(z.string()),
  haystack_dates: z.array(z.string()),
  haystack_sessions: z.array(z.array(TurnSchema)),
  answer_session_ids: z.array(z.string()),
});
export type LongMemEvalItem = z.infer<typeof LongMemEvalItemSchema>;

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isTurn(t: unknown): boolean {
  return (
    isRecord(t) &&
    (t.role === 'user' || t.role === 'assistant') &&
    isString(t.content) &&
    (t.has_answer === undefined || typeof t.has_answer === 'boolean')
  );
}

/**
 * Whether `raw` has LongMemEvalItemSchema's shape, checked in place. The schema stays the contract and the source
 * of every error message, but parsing with it copies each of an item's ~500 turn objects: on LongMemEval S that
 * was ~65 MB of a BM25 run's ~600 MB of short-lived objects (sampling heap profile) and ~45 ms per thread. An item
 * that passes is read as it is (keys the schema does not know are ignored either way); any other goes through the
 * schema, which says what is wrong. longmemeval.test.ts holds the two to the same verdicts.
 */
export function hasItemShape(raw: unknown): raw is LongMemEvalItem {
  if (!isRecord(raw)) return false;
  const { answer } = raw;
  return (
    isString(raw.question_id) &&
    raw.question_id.length > 0 &&
    isString(raw.question_type) &&
    isString(raw.question) &&
    (isString(answer) || (typeof answer === 'number' && Number.isFinite(answer))) &&
    isString(raw.question_date) &&
    isStringArray(raw.haystack_session_ids) &&
    isStringArray(raw.haystack_dates) &&
    isStringArray(raw.answer_session_ids) &&
    Array.isArray(raw.haystack_sessions) &&
    raw.haystack_sessions.every((s) => Array.isArray(s) && s.every(isTurn))
  );
}

function where(file: string, raw: unknown): string {
  const id = typeof raw === 'object' && raw !== null && 'question_id' in raw ? String(raw.question_id) : undefined;
  return id ? `${file} (question ${id})` : file;
}

function fail(file: string, raw: unknown, error: z.ZodError): never {
  const first = error.issues[0];
  const path = first?.path.join('.') ?? '';
  throw new InputError(`field \`${path}\`: ${first?.message ?? 'invalid'}`, where(file, raw));
}

export function longMemEvalCatalogEntry(raw: unknown, file: string): CatalogEntry {
  const parsed = LongMemEvalHeadSchema.safeParse(raw);
  if (!parsed.success) fail(file, raw, parsed.error);
  const { question_id: questionId, question_type: nativeType } = parsed.data;
  const mapped = longMemEvalType(questionId, nativeType);
  if (!mapped) throw new InputError(`unknown question_type "${nativeType}"`, where(file, raw));
  return { questionId, nativeType, adaptType: mapped.type, isAbstention: mapped.isAbstention };
}

function date(text: string, field: string, file: string, raw: unknown): string {
  const at = parseLongMemEvalDate(text);
  if (!at)
    throw new InputError(
      `field \`${field}\`: bad date "${text}" (expected "2023/05/30 (Tue) 23:40")`,
      where(file, raw),
    );
  return at;
}

/**
 * One item as an Instance. A gold session id (`answer_session_ids`) that is not among the haystack's sessions is
 * a data defect recorded in `issues` (kept in the gold, where it can never be retrieved), so a question whose gold
 * cannot be found is counted and reported rather than silently scored against a haystack that lacks it.
 */
export function normaliseLongMemEval(raw: unknown, file: string, dataset: string, issues?: DataIssue[]): Instance {
  const entry = longMemEvalCatalogEntry(raw, file);
  let item: LongMemEvalItem;
  if (hasItemShape(raw)) {
    item = raw;
  } else {
    const parsed = LongMemEvalItemSchema.safeParse(raw);
    if (!parsed.success) fail(file, raw, parsed.error);
    item = parsed.data;
  }
  const n = item.haystack_session_ids.length;
  if (item.haystack_dates.length !== n || item.haystack_sessions.length !== n) {
    throw new InputError(
      `haystack_session_ids (${n}), haystack_dates (${item.haystack_dates.length}) and haystack_sessions ` +
        `(${item.haystack_sessions.length}) must be parallel`,
      where(file, raw),
    );
  }
  const evidenceTurnIds: string[] = [];
  const haystack: Session[] = item.haystack_session_ids.map((sessionId, s) => {
    const at = date(item.haystack_dates[s]!, `haystack_dates.${s}`, file, raw);
    const turns: Turn[] = item.haystack_sessions[s]!.map((t, i) => {
      const id = `${sessionId}_${i + 1}`;
      if (t.has_answer === true) evidenceTurnIds.push(id);
      return { id, sessionId, index: i, role: t.role, text: t.content, at };
    });
    return { id: sessionId, at, turns };
  });
  const inHaystack = new Set(item.haystack_session_ids);
  const absent = item.answer_session_ids.filter((id) => !inHaystack.has(id));
  for (const [i, id] of item.answer_session_ids.entries()) {
    if (inHaystack.has(id)) continue;
    issues?.push({
      file,
      questionId: item.question_id,
      field: `answer_session_ids[${i}]`,
      problem:
        `"${id}" is not a session of the haystack` +
        (absent.length === item.answer_session_ids.length
          ? ' (no gold session is; the question has no retrievable gold)'
          : ''),
      action: 'kept',
    });
  }
  return {
    dataset,
    query: { id: item.question_id, text: item.question, askedAt: date(item.question_date, 'question_date', file, raw) },
    haystackId: item.question_id,
    haystack,
    gold: {
      nativeType: entry.nativeType,
      type: entry.adaptType,
      isAbstention: entry.isAbstention,
      evidenceSessionIds: [...item.answer_session_ids],
      evidenceTurnIds,
      ...longMemEvalSuperseded(
        item.question_id,
        entry.nativeType,
        item.answer_session_ids,
        haystack,
        new Set(evidenceTurnIds),
      ),
      answer: String(item.answer),
    },
  };
}
