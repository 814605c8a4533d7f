/**
 * BEAM (mohammadtavakoli78/BEAM@b2a3ee8, `chats/<tier>/<n>/`): one chat folder → normalised `Instance`s, one per
 * probing question, all sharing ONE haystack (the chat), so an index is built once per chat.
 *
 * Units and ids (docs/datasets.md §4.1):
 * - a batch is a session, id `b<batch_number>`, dated by the `time_anchor` of its first message (`March-15-2024`);
 *   the batch's own `time_anchor` is always null upstream, so it is not read (reported once per chat). Every message
 *   gets its batch's date: the chat has no per-message times;
 * - a message is a turn, id `m<id>` (`id` runs 0..n−1 over the whole chat; `source_chat_ids` are these ids); a turn
 *   pair is what the index's `round` granularity builds (a user message and the reply after it);
 * - the `->-> <batch>,<bullet>` plan marker at the end of user (and some echoed assistant) messages leaks the batch
 *   number and is not part of what the user said: it is cut from the text and the cuts are reported;
 * - question ids `<tier>-<chat>:q<i>`, i over the abilities in BEAM's own (alphabetical) order, then file order,
 *   so the chat is the bootstrap cluster (src/eval/stats: ids ending in `:q<n>`); the chat id is the folder number
 *   (`topic.json` ids are stale in 100K and are not read);
 * - `askedAt` = the chat's last anchor (the questions carry no date and are asked after the chat).
 *
 * Gold: evidence = `source_chat_ids` flattened (nested event-ordering lists, the two sides of a contradiction or of
 * a temporal gap; for knowledge updates `updated_info` only — `original_info` is the superseded value, kept as
 * `supersededTurnIds`: supersession.ts), duplicates
 * removed, ids outside the chat dropped, every repair reported; a question without ids is kept and left out of
 * retrieval recall. The scored gold is `rubric` (upstream's `src/evaluation/run_evaluation.py` judges nothing
 * else): `gold.rubric`, and `gold.answer` = the rubric items one per line. An `answer` whose durations disagree with
 * the rubric's is reported and the rubric kept. Types: abilities.ts `BEAM_ABILITIES`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { CatalogEntry, DataIssue, ParseOptions } from '../../src/core/dataset-records.ts';
import { InputError } from '../../src/core/errors.ts';
import type { Instance, Session, Turn } from '../../src/core/types.ts';
import { decodeFailure, parseJsonBytes } from '../../src/data/json-decode.ts';
import { BEAM_ABILITIES, BEAM_ABILITY_ORDER } from './abilities.ts';
import { parseBeamAnchor } from './dates.ts';
import { answerContradictsRubric } from './durations.ts';
import { beamSuperseded } from './supersession.ts';

export const BEAM_CHAT_FILE = 'chat.json';
export const BEAM_QUESTIONS_FILE = join('probing_questions', 'probing_questions.json');

/** The raw record of one chat: its two files, parsed. */
export interface BeamRecord {
  tier: string;
  chat: string;
  messages?: unknown;
  questions: unknown;
}

const MessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  id: z.number().int().nonnegative(),
  content: z.string(),
  time_anchor: z.string().nullable().optional(),
});
const BatchSchema = z.looseObject({
  batch_number: z.number().int(),
  turns: z.array(z.array(MessageSchema)),
  time_anchor: z.string().nullable().optional(),
});
const ChatSchema = z.array(BatchSchema).min(1);
const QuestionSchema = z.looseObject({
  question: z.string(),
  rubric: z.array(z.string()),
  answer: z.string().optional(),
  source_chat_ids: z.unknown().optional(),
  total_mentions: z.number().optional(),
  ordering_tested: z.array(z.unknown()).optional(),
});
const QuestionsSchema = z.record(z.string(), z.array(z.unknown()));

/** The chat folders of a tier folder (`1`, `2`, … holding chat.json), in numeric order. */
export function beamChatDirs(tierPath: string): string[] {
  const dirs = readdirSync(tierPath)
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        return statSync(join(tierPath, n, BEAM_QUESTIONS_FILE)).isFile();
      } catch {
        return false;
      }
    })
    .sort((a, b) => Number(a) - Number(b));
  if (dirs.length === 0) throw new InputError(`holds no BEAM chat folders (<n>/${BEAM_QUESTIONS_FILE})`, tierPath);
  return dirs.map((d) => join(tierPath, d));
}

/** The files of one chat folder that are data (hashed for provenance and the lock file). */
export function beamChatFiles(dir: string): string[] {
  return [join(dir, BEAM_CHAT_FILE), join(dir, BEAM_QUESTIONS_FILE)];
}

function decode(buf: Buffer, file: string, parse: ParseOptions | undefined): unknown {
  try {
    return parseJsonBytes(buf, parse);
  } catch (err) {
    throw decodeFailure(err, file);
  }
}

function tierOf(dir: string): string {
  return basename(join(dir, '..'));
}

/** One chat folder read and parsed (`withChat: false`: the probing questions only, for the catalog). */
export async function readBeamChat(
  dir: string,
  opts: { parse?: ParseOptions | undefined; withChat?: boolean } = {},
): Promise<BeamRecord> {
  const qFile = join(dir, BEAM_QUESTIONS_FILE);
  const questions = decode(await readFile(qFile), qFile, undefined);
  const record: BeamRecord = { tier: tierOf(dir), chat: basename(dir), questions };
  if (opts.withChat !== false) {
    const cFile = join(dir, BEAM_CHAT_FILE);
    record.messages = decode(await readFile(cFile), cFile, opts.parse);
  }
  return record;
}

/** `readBeamChat` without an event loop (worker threads). */
export function readBeamChatSync(dir: string, parse?: ParseOptions): BeamRecord {
  const qFile = join(dir, BEAM_QUESTIONS_FILE);
  const cFile = join(dir, BEAM_CHAT_FILE);
  return {
    tier: tierOf(dir),
    chat: basename(dir),
    questions: decode(readFileSync(qFile), qFile, undefined),
    messages: decode(readFileSync(cFile), cFile, parse),
  };
}

function zodFail(where: string, error: z.ZodError, prefix = ''): never {
  const first = error.issues[0];
  throw new InputError(`field \`${prefix}${first?.path.join('.') ?? ''}\`: ${first?.message ?? 'invalid'}`, where);
}

interface RawQuestion {
  ability: string;
  index: number;
  raw: unknown;
}

/** The questions of a chat in BEAM's ability order; an ability BEAM does not define is an error naming it. */
function questionsOf(record: BeamRecord, where: string): RawQuestion[] {
  const parsed = QuestionsSchema.safeParse(record.questions);
  if (!parsed.success) zodFail(`${where} ${BEAM_QUESTIONS_FILE}`, parsed.error);
  for (const key of Object.keys(parsed.data)) {
    if (!BEAM_ABILITIES[key])
      throw new InputError(
        `unknown ability "${key}" (BEAM has ${BEAM_ABILITY_ORDER.join(', ')})`,
        `${where} ${BEAM_QUESTIONS_FILE}`,
      );
  }
  return BEAM_ABILITY_ORDER.flatMap((ability) =>
    (parsed.data[ability] ?? []).map((raw, index) => ({ ability, index, raw })),
  );
}

function chatKey(record: BeamRecord): string {
  return `${record.tier}-${record.chat}`;
}

/** Catalog entries of one chat, from its probing questions alone. */
export function beamCatalogEntries(record: BeamRecord, dir: string): CatalogEntry[] {
  return questionsOf(record, dir).map((q, i) => {
    const map = BEAM_ABILITIES[q.ability]!;
    return {
      questionId: `${chatKey(record)}:q${i}`,
      nativeType: q.ability,
      adaptType: map.type,
      isAbstention: q.ability === 'abstention',
      ...(map.reportAs ? { reportAs: map.reportAs } : {}),
      file: dir,
      haystack: chatKey(record),
    };
  });
}

/** The `->-> <batch>,<bullet>` plan marker (and any LLM commentary after it) ending a message; never followed by a newline. */
const MARKER = /\s*->->[^\n]*$/u;

interface BuiltChat {
  haystack: Session[];
  ids: Set<number>;
  sessionOf: Map<number, string>;
  askedAt: string;
}

/** What building a chat repaired, reported once per chat. */
interface ChatRepairs {
  nullBatchAnchors: number;
  inherited: number;
  cut: { user: number; assistant: number };
}

function buildChat(record: BeamRecord, dir: string, issues: DataIssue[]): BuiltChat {
  const file = join(dir, BEAM_CHAT_FILE);
  const loc = `${chatKey(record)}/${BEAM_CHAT_FILE} `;
  const parsed = ChatSchema.safeParse(record.messages);
  if (!parsed.success) zodFail(file, parsed.error);
  const chat: BuiltChat = { haystack: [], ids: new Set(), sessionOf: new Map(), askedAt: '' };
  const repairs: ChatRepairs = { nullBatchAnchors: 0, inherited: 0, cut: { user: 0, assistant: 0 } };
  let lastAnchor: string | undefined;
  parsed.data.forEach((batch, b) => {
    if (batch.time_anchor === null || batch.time_anchor === undefined) repairs.nullBatchAnchors++;
    const at = batchDate(batch, b, lastAnchor, { file, loc, issues, repairs });
    lastAnchor = at;
    addBatch(chat, batch, at, file, repairs);
  });
  reportRepairs(repairs, parsed.data.length, file, loc, issues);
  chat.askedAt = lastAnchor!;
  return chat;
}

/** A batch's date: its first message's anchor, else the batch before's (reported). */
function batchDate(
  batch: z.infer<typeof BatchSchema>,
  b: number,
  lastAnchor: string | undefined,
  { file, loc, issues, repairs }: { file: string; loc: string; issues: DataIssue[]; repairs: ChatRepairs },
): string {
  const first = batch.turns.flat()[0];
  if (!first?.time_anchor) {
    if (!lastAnchor)
      throw new InputError(
        `field \`[${b}].turns[0][0].time_anchor\`: the first batch's first message has no time anchor`,
        file,
      );
    repairs.inherited++;
    return lastAnchor;
  }
  const at = parseBeamAnchor(first.time_anchor);
  if (!at)
    throw new InputError(
      `field \`[${b}].turns[0][0].time_anchor\`: bad date "${first.time_anchor}" (expected e.g. "March-15-2024")`,
      file,
    );
  if (lastAnchor && at < lastAnchor) {
    issues.push({
      file,
      field: `${loc}[${b}].turns[0][0].time_anchor`,
      problem: `anchor ${at.slice(0, 10)} is earlier than the previous batch's ${lastAnchor.slice(0, 10)}`,
      action: 'kept',
    });
  }
  return at;
}

/** A batch as a session of the chat, each message a turn with the plan marker cut. */
function addBatch(chat: BuiltChat, batch: z.infer<typeof BatchSchema>, at: string, file: string, repairs: ChatRepairs) {
  const sessionId = `b${batch.batch_number}`;
  const turns: Turn[] = batch.turns.flat().map((m, i) => {
    if (chat.ids.has(m.id)) throw new InputError(`message id ${m.id} appears twice`, file);
    chat.ids.add(m.id);
    chat.sessionOf.set(m.id, sessionId);
    let text = m.content;
    if (text.includes('->->')) {
      const stripped = text.replace(MARKER, '');
      if (stripped !== text) {
        repairs.cut[m.role]++;
        text = stripped;
      }
    }
    return { id: `m${m.id}`, sessionId, index: i, role: m.role, text, at };
  });
  if (chat.haystack.some((s) => s.id === sessionId))
    throw new InputError(`batch_number ${batch.batch_number} appears twice`, file);
  chat.haystack.push({ id: sessionId, at, turns });
}

function reportRepairs(r: ChatRepairs, batches: number, file: string, loc: string, issues: DataIssue[]): void {
  if (r.nullBatchAnchors > 0) {
    issues.push({
      file,
      field: `${loc}[*].time_anchor`,
      problem: `batch time_anchor is null in ${r.nullBatchAnchors} of ${batches} batches; each batch is dated by its first message's time_anchor`,
      action: 'repaired',
    });
  }
  if (r.inherited > 0) {
    issues.push({
      file,
      field: `${loc}[*].turns[0][0].time_anchor`,
      problem: `${r.inherited} batches have no anchor on their first message; dated as the batch before`,
      action: 'repaired',
    });
  }
  if (r.cut.user + r.cut.assistant > 0) {
    issues.push({
      file,
      field: `${loc}[*].turns[*][*].content`,
      problem: `${r.cut.user} user and ${r.cut.assistant} assistant messages end with a "->-> <batch>,<bullet>" plan marker; cut from the text`,
      action: 'repaired',
    });
  }
}

/** The evidence ids of a question's `source_chat_ids`, with what was repaired or dropped. */
function evidenceOf(
  ability: string,
  value: unknown,
): { ids: number[]; problems: string[]; bad: string[]; note?: string } {
  const problems: string[] = [];
  const bad: string[] = [];
  let source = value;
  let note: string | undefined;
  if (ability === 'knowledge_update' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    source = (value as Record<string, unknown>).updated_info;
    if (Array.isArray(source) && source.length === 0)
      note = 'updated_info is empty (the new value has no evidence id); left out of retrieval recall';
  }
  const ids: number[] = [];
  let nested = false;
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) ids.push(v);
    else if (Array.isArray(v)) {
      if (depth > 0) nested = true;
      for (const x of v) walk(x, depth + 1);
    } else if (v !== null && typeof v === 'object') {
      for (const x of Object.values(v)) walk(x, depth);
    } else if (v !== undefined) bad.push(JSON.stringify(v));
  };
  walk(source, 0);
  if (nested) problems.push('nested id lists flattened');
  const unique = [...new Set(ids)];
  if (unique.length < ids.length) problems.push(`${ids.length - unique.length} repeated ids removed`);
  return { ids: unique, problems, bad, ...(note ? { note } : {}) };
}

type Report = (f: string, problem: string, action: DataIssue['action']) => void;

/** Normalises one chat; `keep` filters questions (others are not built); defects go to `issues`. */
export function normaliseBeam(
  record: BeamRecord,
  dir: string,
  dataset: string,
  issues: DataIssue[],
  keep?: (c: CatalogEntry) => boolean,
): Instance[] {
  const catalog = beamCatalogEntries(record, dir);
  const wanted = keep ? catalog.filter(keep) : catalog;
  if (wanted.length === 0) return [];
  const chat = buildChat(record, dir, issues);
  const qFile = join(dir, BEAM_QUESTIONS_FILE);
  const out: Instance[] = [];
  const raws = questionsOf(record, dir);
  catalog.forEach((entry, i) => {
    const { ability, index, raw } = raws[i]!;
    const field = `${ability}[${index}]`;
    const parsed = QuestionSchema.safeParse(raw);
    if (!parsed.success) zodFail(qFile, parsed.error, `${field}.`);
    const q = parsed.data;
    const issue: Report = (f, problem, action) => {
      issues.push({ file: qFile, questionId: entry.questionId, field: `${field}${f}`, problem, action });
    };
    const evidenceTurnIds = ability === 'abstention' ? [] : questionEvidence(ability, q, chat, record.chat, issue);
    checkQuestion(ability, q, field, qFile, issue);
    if (keep && !keep(entry)) return;
    out.push(questionInstance({ entry, ability, q, evidenceTurnIds }, { dataset, chat, chatKey: chatKey(record) }));
  });
  return out;
}

/** The evidence turns of a question (ids naming no message of the chat dropped, every repair reported). */
function questionEvidence(
  ability: string,
  q: z.infer<typeof QuestionSchema>,
  chat: BuiltChat,
  chatName: string,
  issue: Report,
): string[] {
  const evidenceTurnIds: string[] = [];
  if (q.source_chat_ids === undefined)
    issue('.source_chat_ids', 'no source_chat_ids (left out of retrieval recall)', 'kept');
  const { ids, problems, bad, note } = evidenceOf(ability, q.source_chat_ids);
  if (problems.length > 0) issue('.source_chat_ids', problems.join('; '), 'repaired');
  if (note) issue('.source_chat_ids.updated_info', note, 'kept');
  for (const b of bad) issue('.source_chat_ids', `${b} is not a message id`, 'dropped');
  for (const id of ids) {
    if (chat.ids.has(id)) evidenceTurnIds.push(`m${id}`);
    else issue('.source_chat_ids', `id ${id} names no message of chat ${chatName}`, 'dropped');
  }
  if (q.source_chat_ids !== undefined && !note && ids.length === 0 && bad.length === 0) {
    issue('.source_chat_ids', 'empty (left out of retrieval recall)', 'kept');
  }
  return evidenceTurnIds;
}

/** The rubric is the scored gold: an empty one is an error; an answer or count that disagrees with it is reported. */
function checkQuestion(
  ability: string,
  q: z.infer<typeof QuestionSchema>,
  field: string,
  qFile: string,
  issue: Report,
) {
  if (q.rubric.length === 0)
    throw new InputError(`field \`${field}.rubric\`: empty (the rubric is the scored gold)`, qFile);
  if (q.answer !== undefined && answerContradictsRubric(q.answer, q.rubric)) {
    issue(
      '.answer',
      `answer "${q.answer.slice(0, 80)}" states another duration than the rubric (${q.rubric.join(' | ').slice(0, 80)}); the rubric is the gold`,
      'kept',
    );
  }
  if (ability !== 'event_ordering') return;
  if (q.total_mentions !== undefined && q.total_mentions !== q.rubric.length) {
    issue(
      '.total_mentions',
      `total_mentions ${q.total_mentions} ≠ ${q.rubric.length} rubric items; the rubric is the order gold`,
      'kept',
    );
  }
  if (q.ordering_tested && q.ordering_tested.length !== q.rubric.length) {
    issue(
      '.ordering_tested',
      `${q.ordering_tested.length} ordering_tested items ≠ ${q.rubric.length} rubric items; the rubric is the order gold`,
      'kept',
    );
  }
}

function questionInstance(
  {
    entry,
    ability,
    q,
    evidenceTurnIds,
  }: {
    entry: CatalogEntry;
    ability: string;
    q: z.infer<typeof QuestionSchema>;
    evidenceTurnIds: string[];
  },
  { dataset, chat, chatKey }: { dataset: string; chat: BuiltChat; chatKey: string },
): Instance {
  const evidenceSessionIds = [...new Set(evidenceTurnIds.map((t) => chat.sessionOf.get(Number(t.slice(1)))!))];
  const current = { turns: evidenceTurnIds, sessions: evidenceSessionIds };
  const superseded = beamSuperseded(ability, q.source_chat_ids, current, (t) => chat.sessionOf.get(Number(t.slice(1))));
  const inst: Instance = {
    dataset,
    query: { id: entry.questionId, text: q.question, askedAt: chat.askedAt },
    haystackId: chatKey,
    haystack: chat.haystack,
    gold: {
      nativeType: ability,
      type: entry.adaptType,
      isAbstention: entry.isAbstention,
      evidenceSessionIds,
      evidenceTurnIds,
      ...superseded,
      answer: q.rubric.join('\n'),
      rubric: q.rubric,
    },
  };
  if (entry.reportAs) inst.gold.reportAs = entry.reportAs;
  return inst;
}
