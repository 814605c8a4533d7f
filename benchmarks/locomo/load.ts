/**
 * LoCoMo conversation (one element of `locomo10.json`) → normalised `Instance`s, one per QA item, all sharing ONE
 * `haystack` array (the conversation) so an index is built once per conversation.
 *
 * Choices (docs/datasets.md §1 lists the defects handled here):
 * - session id = `D<N>` (the prefix of its turns' `dia_id`), so evidence `D3:5` maps to session `D3` by its prefix;
 *   sessions come from the `session_N` keys (conv-26 has `_date_time` keys for sessions 20–35 with no turns);
 * - turn id = `dia_id`; role: `speaker_a` → 'user', `speaker_b` → 'assistant' (LoCoMo is two humans talking;
 *   the harness needs a role, and speaker_a opens every conversation); the speaker name is kept in `speaker`;
 * - image turns keep `blip_caption` in `Turn.caption` (the image itself was never released);
 * - a question's `askedAt` = the time of the last session that has turns (LoCoMo gives no question time; its
 *   questions are asked after the whole conversation);
 * - evidence strings are split on `[;\s]+`, `D:11:26` → `D11:26`, zero-padded `D30:05` → `D30:5`; ids that still
 *   do not name a turn are dropped and reported;
 * - category 5 (adversarial) has no `answer` in 444/446 items: `gold.answer` = '' and `adversarial_answer` is kept
 *   in `gold.adversarialAnswer`; numeric answers become strings.
 * Query ids: `<sample_id>:q<index in qa>`; haystackId = sample_id; nativeType = the category number as a string.
 */
import { z } from 'zod';
import type { CatalogEntry, DataIssue } from '../../src/core/dataset-records.ts';
import { InputError } from '../../src/core/errors.ts';
import type { Instance, Session, Turn } from '../../src/core/types.ts';
import { parseLocomoDate } from './dates.ts';
import { LOCOMO_CATEGORIES } from './types.ts';

const TurnSchema = z.looseObject({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().optional(),
});

const QaSchema = z.looseObject({
  question: z.string(),
  answer: z.union([z.string(), z.number()]).optional(),
  adversarial_answer: z.string().optional(),
  evidence: z.array(z.string()).optional(),
  category: z.number().int(),
});

const HeadSchema = z.looseObject({
  sample_id: z.string().min(1),
  qa: z.array(z.looseObject({ category: z.number().int() })),
});

export const SampleSchema = z.looseObject({
  sample_id: z.string().min(1),
  conversation: z.looseObject({ speaker_a: z.string(), speaker_b: z.string() }),
  qa: z.array(QaSchema),
});

function sampleWhere(file: string, raw: unknown, index: number): string {
  const id = typeof raw === 'object' && raw !== null && 'sample_id' in raw ? String(raw.sample_id) : `element ${index}`;
  return `${file} (${id})`;
}

function fail(file: string, raw: unknown, index: number, error: z.ZodError): never {
  const first = error.issues[0];
  throw new InputError(
    `field \`${first?.path.join('.') ?? ''}\`: ${first?.message ?? 'invalid'}`,
    sampleWhere(file, raw, index),
  );
}

function categoryType(category: number, file: string, questionId: string) {
  const type = LOCOMO_CATEGORIES[category];
  if (!type) throw new InputError(`unknown category ${category} (expected 1–5)`, `${file} (question ${questionId})`);
  return type;
}

/** Catalog entries of one conversation, without building its haystack. */
export function locomoCatalogEntries(raw: unknown, file: string, index: number): CatalogEntry[] {
  const parsed = HeadSchema.safeParse(raw);
  if (!parsed.success) fail(file, raw, index, parsed.error);
  const { sample_id: sampleId, qa } = parsed.data;
  return qa.map((q, i) => {
    const questionId = `${sampleId}:q${i}`;
    const adaptType = categoryType(q.category, file, questionId);
    return {
      questionId,
      nativeType: String(q.category),
      adaptType,
      isAbstention: q.category === 5,
      haystack: sampleId,
    };
  });
}

const EVIDENCE_ID = /^D:?(\d+):(\d+)$/;

/** Repairs one raw evidence string into candidate dia_ids; reports what it changed. */
export function repairEvidence(rawValue: string): { ids: string[]; problems: string[]; unparsable: string[] } {
  const problems: string[] = [];
  const unparsable: string[] = [];
  const parts = rawValue
    .trim()
    .split(/[;\s]+/)
    .filter((p) => p.length > 0);
  if (parts.length !== 1 || parts[0] !== rawValue)
    problems.push(`"${rawValue}" holds ${parts.length} ids; split on [;\\s]+`);
  const ids: string[] = [];
  for (const part of parts) {
    const m = EVIDENCE_ID.exec(part);
    if (!m) {
      unparsable.push(part);
      continue;
    }
    const id = `D${Number(m[1])}:${Number(m[2])}`;
    if (id !== part) problems.push(`"${part}" normalised to "${id}"`);
    ids.push(id);
  }
  return { ids, problems, unparsable };
}

export interface Built {
  haystack: Session[];
  turnIds: Set<string>;
  askedAt: string;
}

export function buildHaystack(
  conv: Record<string, unknown> & { speaker_a: string; speaker_b: string },
  file: string,
  sampleId: string,
  issues: DataIssue[],
): Built {
  const where = `${file} (${sampleId})`;
  const sessionNumbers = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const dated = Object.keys(conv)
    .map((k) => /^session_(\d+)_date_time$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]));
  const orphanDates = dated.filter((n) => !sessionNumbers.includes(n)).sort((a, b) => a - b);
  if (orphanDates.length > 0) {
    issues.push({
      file,
      field: `${sampleId}.conversation.session_{${orphanDates.join(',')}}_date_time`,
      problem: `${orphanDates.length} session dates have no session_N turn list`,
      action: 'dropped',
    });
  }
  const turnIds = new Set<string>();
  const haystack: Session[] = [];
  for (const n of sessionNumbers) {
    const key = `session_${n}`;
    const turnsParsed = z.array(TurnSchema).safeParse(conv[key]);
    if (!turnsParsed.success) {
      const first = turnsParsed.error.issues[0];
      throw new InputError(
        `field \`conversation.${key}.${first?.path.join('.') ?? ''}\`: ${first?.message ?? 'invalid'}`,
        where,
      );
    }
    const dateText = conv[`${key}_date_time`];
    const at = typeof dateText === 'string' ? parseLocomoDate(dateText) : undefined;
    if (!at) {
      throw new InputError(
        `field \`conversation.${key}_date_time\`: ${typeof dateText === 'string' ? `bad date "${dateText}"` : 'missing'} ` +
          '(expected e.g. "1:56 pm on 8 May, 2023")',
        where,
      );
    }
    const sessionId = `D${n}`;
    const turns: Turn[] = turnsParsed.data.map((t, i) => {
      if (t.speaker !== conv.speaker_a && t.speaker !== conv.speaker_b) {
        throw new InputError(
          `field \`conversation.${key}.${i}.speaker\`: "${t.speaker}" is neither speaker_a nor speaker_b`,
          where,
        );
      }
      turnIds.add(t.dia_id);
      const turn: Turn = {
        id: t.dia_id,
        sessionId,
        index: i,
        role: t.speaker === conv.speaker_a ? 'user' : 'assistant',
        speaker: t.speaker,
        text: t.text,
        at,
      };
      if (t.blip_caption !== undefined) turn.caption = t.blip_caption;
      return turn;
    });
    haystack.push({ id: sessionId, at, turns });
  }
  const last = haystack.at(-1);
  if (!last) throw new InputError('conversation has no session_N turn lists', where);
  return { haystack, turnIds, askedAt: last.at };
}

/**
 * Normalises one conversation. `keep` filters questions (others are not built); defects go to `issues`.
 */
export function normaliseLocomo(
  raw: unknown,
  file: string,
  index: number,
  dataset: string,
  issues: DataIssue[],
  keep?: (c: CatalogEntry) => boolean,
): Instance[] {
  const catalog = locomoCatalogEntries(raw, file, index);
  const parsed = SampleSchema.safeParse(raw);
  if (!parsed.success) fail(file, raw, index, parsed.error);
  const { sample_id: sampleId, conversation, qa } = parsed.data;
  const built = buildHaystack(conversation, file, sampleId, issues);
  const out: Instance[] = [];
  qa.forEach((q, i) => {
    const entry = catalog[i]!;
    const at = { file, questionId: entry.questionId, field: `${sampleId}.qa[${i}]`, sampleId };
    const evidenceTurnIds = questionEvidence(q.evidence, built.turnIds, at, issues);
    checkAnswer(q, at, issues);
    if (keep && !keep(entry)) return;
    out.push(questionInstance(q, entry, evidenceTurnIds, { dataset, sampleId, built }));
  });
  return out;
}

interface QuestionAt {
  file: string;
  questionId: string;
  field: string;
  sampleId: string;
}

/** A question's evidence turns: each string repaired where it can be, ids naming no turn dropped (all reported). */
function questionEvidence(
  evidence: readonly string[] | undefined,
  turnIds: ReadonlySet<string>,
  { file, questionId, field, sampleId }: QuestionAt,
  issues: DataIssue[],
): string[] {
  const evidenceTurnIds: string[] = [];
  if (evidence === undefined || evidence.length === 0) {
    issues.push({
      file,
      questionId,
      field: `${field}.evidence`,
      problem: 'no evidence ids (left out of retrieval recall)',
      action: 'kept',
    });
  }
  (evidence ?? []).forEach((value, j) => {
    const ef = `${field}.evidence[${j}]`;
    const { ids, problems, unparsable } = repairEvidence(value);
    if (problems.length > 0)
      issues.push({ file, questionId, field: ef, problem: problems.join('; '), action: 'repaired' });
    for (const bad of unparsable) {
      issues.push({ file, questionId, field: ef, problem: `"${bad}" is not a dia_id`, action: 'dropped' });
    }
    for (const id of ids) {
      if (!turnIds.has(id)) {
        issues.push({
          file,
          questionId,
          field: ef,
          problem: `"${id}" names no turn of ${sampleId}`,
          action: 'dropped',
        });
      } else if (!evidenceTurnIds.includes(id)) {
        evidenceTurnIds.push(id);
      }
    }
  });
  return evidenceTurnIds;
}

type Qa = z.infer<typeof SampleSchema>['qa'][number];

/** A numeric answer is stored as a string; a category-5 item with an answer besides its adversarial one is kept. */
function checkAnswer(q: Qa, { file, questionId, field }: QuestionAt, issues: DataIssue[]): void {
  if (typeof q.answer === 'number') {
    issues.push({
      file,
      questionId,
      field: `${field}.answer`,
      problem: `answer is the number ${q.answer}; stored as a string`,
      action: 'repaired',
    });
  }
  if (q.category === 5 && q.answer !== undefined) {
    issues.push({
      file,
      questionId,
      field: `${field}.answer`,
      problem: `category 5 item has an answer ("${String(q.answer)}") besides adversarial_answer`,
      action: 'kept',
    });
  }
}

function questionInstance(
  q: Qa,
  entry: CatalogEntry,
  evidenceTurnIds: string[],
  { dataset, sampleId, built }: { dataset: string; sampleId: string; built: Built },
): Instance {
  const evidenceSessionIds = [...new Set(evidenceTurnIds.map((id) => id.slice(0, id.indexOf(':'))))];
  const inst: Instance = {
    dataset,
    query: { id: entry.questionId, text: q.question, askedAt: built.askedAt },
    haystackId: sampleId,
    haystack: built.haystack,
    gold: {
      nativeType: entry.nativeType,
      type: entry.adaptType,
      isAbstention: entry.isAbstention,
      evidenceSessionIds,
      evidenceTurnIds,
      answer: q.answer === undefined ? '' : String(q.answer),
    },
  };
  if (q.adversarial_answer !== undefined) inst.gold.adversarialAnswer = q.adversarial_answer;
  return inst;
}
