/**
 * LoCoMo-Plus (xjtuleeyf/Locomo-Plus@059f4e3 `data/locomo_plus.json`): 401 "Cognitive" cue/trigger items, each
 * stitched into a LoCoMo conversation at load time → one `Instance` per item with its own haystack.
 *
 * The stitching follows upstream (`data/build_conv.py` `build_context`, `data/unified_input.py`), deterministically:
 * - item i goes with `locomo10.json[i % 10]` (`unified_input.py`; `build_conv.py`'s unseeded `random.choice` cannot
 *   be reproduced, and upstream's own earlier outputs pair item k with conversation k % 10);
 * - the trigger is asked at `query_time` = the last session's time + 7 days;
 * - the cue is dated `cue_time` = query_time − gap, the gap read from `time_gap` as upstream's `parse_time_gap`
 *   reads it (the first `<n | number word | a | an> week(s) | month(s) | year(s)`; week 7, month 30, year 365 days;
 *   nothing matched = 0 days, reported) and placed by a stable sort of the sessions and the cue by time (on a tie the
 *   cue goes after the session), as one inserted session `P<i>`;
 * - "A:" lines are spoken by `speaker_a` (role user), "B:" lines by `speaker_b` (role assistant); other lines are
 *   dropped and reported. The trigger is the question: it is not put into the haystack (upstream appends it as the
 *   last line of the dialogue the model reads; here the reader gets it as the question).
 * Gold: the inserted cue turns `P<i>:1`, `P<i>:2` (session `P<i>`); no reference answer; the judge's evidence is the
 * cue as `Speaker：text` lines (`_cue_dialogue_to_evidence`). Question id `plus:<i>`; native type `relation_type`;
 * reported as its own type `cognitive` (types.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import type { CatalogEntry, DataIssue } from '../../src/core/dataset-records.ts';
import { InputError } from '../../src/core/errors.ts';
import { englishNumberValues, englishNumberWords } from '../../src/core/number-words.ts';
import type { Instance, Session, Turn } from '../../src/core/types.ts';
import { decodeFailure, parseJsonBytes } from '../../src/data/json-decode.ts';
import { buildHaystack, SampleSchema } from '../locomo/load.ts';
import { LOCOMO_PLUS_TYPE } from './types.ts';

const DAY_MS = 86_400_000;

const ItemSchema = z.looseObject({
  relation_type: z.string().min(1),
  cue_dialogue: z.string(),
  trigger_query: z.string(),
  time_gap: z.string(),
});
const HeadSchema = z.looseObject({ relation_type: z.string().min(1) });

interface Conversation {
  sampleId: string;
  speakerA: string;
  speakerB: string;
  sessions: Session[];
}

// Parsed once per thread and file version: every item of a run reads one of the same ten conversations.
let memo: { path: string; stamp: string; conversations: Conversation[] } | undefined;

/** The LoCoMo conversations of `path`, in file order (memoised by path, size and mtime). */
export function locomoConversations(path: string): Conversation[] {
  const st = statSync(path);
  const stamp = `${st.size}:${st.mtimeMs}`;
  if (memo?.path === path && memo.stamp === stamp) return memo.conversations;
  let raw: unknown;
  try {
    raw = parseJsonBytes(readFileSync(path));
  } catch (err) {
    throw decodeFailure(err, path);
  }
  if (!Array.isArray(raw) || raw.length === 0)
    throw new InputError('is not a non-empty JSON array of LoCoMo conversations', path);
  const conversations = raw.map((sample: unknown, i) => {
    const parsed = SampleSchema.safeParse(sample);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new InputError(
        `field \`${first?.path.join('.') ?? ''}\`: ${first?.message ?? 'invalid'}`,
        `${path} (element ${i})`,
      );
    }
    const { sample_id: sampleId, conversation } = parsed.data;
    // LoCoMo's own defects are reported by `data info --dataset locomo`; upstream reads session_1… until the first gap too.
    const { haystack } = buildHaystack(conversation, path, sampleId, []);
    return { sampleId, speakerA: conversation.speaker_a, speakerB: conversation.speaker_b, sessions: haystack };
  });
  memo = { path, stamp, conversations };
  return conversations;
}

const NUM_WORDS: Record<string, number> = { ...englishNumberValues(1, 12), a: 1, an: 1 };
// Upstream's regex, verbatim in meaning: `\b(\d+|one|…|twelve|a|an)\b\s*(week|weeks|month|months|year|years)\b`.
const GAP = new RegExp(
  `\\b(\\d+|${englishNumberWords(1, 12).join('|')}|a|an)\\b\\s*(week|weeks|month|months|year|years)\\b`,
  'u',
);

/** Days back from the trigger to the cue, as upstream's `parse_time_gap`; undefined where it reads 0 for want of a match. */
export function parseTimeGap(timeGap: string): number | undefined {
  const m = GAP.exec(timeGap.toLowerCase().trim());
  if (!m) return undefined;
  const count = /^\d+$/u.test(m[1]!) ? Number(m[1]) : (NUM_WORDS[m[1]!] ?? 0);
  const unit = m[2]!;
  return count * (unit.startsWith('week') ? 7 : unit.startsWith('month') ? 30 : 365);
}

/** `A: …` / `B: …` lines as (speaker letter, text); other lines are returned apart. */
export function parseAbDialogue(text: string): { turns: { who: 'A' | 'B'; text: string }[]; other: string[] } {
  const turns: { who: 'A' | 'B'; text: string }[] = [];
  const other: string[] = [];
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (l.startsWith('A:')) turns.push({ who: 'A', text: l.slice(2).trim() });
    else if (l.startsWith('B:')) turns.push({ who: 'B', text: l.slice(2).trim() });
    else if (l !== '') other.push(l);
  }
  return { turns, other };
}

export function locomoPlusCatalogEntry(raw: unknown, file: string, index: number): CatalogEntry {
  const head = HeadSchema.safeParse(raw);
  if (!head.success) {
    const first = head.error.issues[0];
    throw new InputError(
      `field \`${first?.path.join('.') ?? ''}\`: ${first?.message ?? 'invalid'}`,
      `${file} (element ${index})`,
    );
  }
  return {
    questionId: `plus:${index}`,
    nativeType: head.data.relation_type,
    adaptType: LOCOMO_PLUS_TYPE.type,
    reportAs: LOCOMO_PLUS_TYPE.reportAs,
    isAbstention: false,
  };
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Stitches item `index` into conversation `index % n` of `companion` (see header); `keep` filters. */
export function normaliseLocomoPlus(
  raw: unknown,
  file: string,
  index: number,
  companion: string,
  dataset: string,
  issues: DataIssue[],
  keep?: (c: CatalogEntry) => boolean,
): Instance[] {
  const entry = locomoPlusCatalogEntry(raw, file, index);
  const parsed = ItemSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new InputError(
      `field \`${first?.path.join('.') ?? ''}\`: ${first?.message ?? 'invalid'}`,
      `${file} (element ${index})`,
    );
  }
  const item = parsed.data;
  const issue = (field: string, problem: string, action: DataIssue['action']): void => {
    issues.push({ file, questionId: entry.questionId, field: `[${index}].${field}`, problem, action });
  };
  const { gap, cue, trigger } = checkedItem(item, `${file} (element ${index})`, issue);
  if (keep && !keep(entry)) return [];
  const conversations = locomoConversations(companion);
  return [stitched(entry, conversations[index % conversations.length]!, { index, gap, cue, trigger, dataset })];
}

type Dialogue = ReturnType<typeof parseAbDialogue>;

/** The item's gap, cue and trigger, each defect reported; a cue or trigger with no speaker line is an error. */
function checkedItem(
  item: z.infer<typeof ItemSchema>,
  where: string,
  issue: (field: string, problem: string, action: DataIssue['action']) => void,
): { gap: number | undefined; cue: Dialogue; trigger: Dialogue } {
  const gap = parseTimeGap(item.time_gap);
  if (gap === undefined)
    issue(
      'time_gap',
      `"${item.time_gap}" names no number of weeks, months or years; read as 0 days as upstream does (the cue sits just before the trigger)`,
      'kept',
    );
  const cue = parseAbDialogue(item.cue_dialogue);
  const trigger = parseAbDialogue(item.trigger_query);
  if (cue.other.length > 0)
    issue('cue_dialogue', `${cue.other.length} lines start with neither "A:" nor "B:"; dropped`, 'dropped');
  if (trigger.other.length > 0)
    issue('trigger_query', `${trigger.other.length} lines start with neither "A:" nor "B:"; dropped`, 'dropped');
  if (cue.turns.length === 0)
    throw new InputError('field `cue_dialogue`: no "A:" or "B:" line (the cue is the retrieval gold)', where);
  if (trigger.turns.length === 0) throw new InputError('field `trigger_query`: no "A:" or "B:" line', where);
  return { gap, cue, trigger };
}

/** The item as one question over its conversation with the cue inserted as session `P<index>`. */
function stitched(
  entry: CatalogEntry,
  conv: Conversation,
  {
    index,
    gap,
    cue,
    trigger,
    dataset,
  }: { index: number; gap: number | undefined; cue: Dialogue; trigger: Dialogue; dataset: string },
): Instance {
  const last = conv.sessions.at(-1)!;
  const queryMs = Date.parse(last.at) + 7 * DAY_MS;
  const cueAt = stamp(queryMs - (gap ?? 0) * DAY_MS);
  const cueSessionId = `P${index}`;
  const speaker = (who: 'A' | 'B'): string => (who === 'A' ? conv.speakerA : conv.speakerB);
  const cueTurns: Turn[] = cue.turns.map((t, i) => ({
    id: `${cueSessionId}:${i + 1}`,
    sessionId: cueSessionId,
    index: i,
    role: t.who === 'A' ? 'user' : 'assistant',
    speaker: speaker(t.who),
    text: t.text,
    at: cueAt,
  }));
  // Stable sort of the sessions and then the cue by time: on a tie the cue follows the session (Python's sort is stable).
  const haystack = [...conv.sessions, { id: cueSessionId, at: cueAt, turns: cueTurns }]
    .map((s, order) => ({ s, order }))
    .sort((a, b) => (a.s.at < b.s.at ? -1 : a.s.at > b.s.at ? 1 : a.order - b.order))
    .map(({ s }) => s);
  return {
    dataset,
    query: { id: entry.questionId, text: trigger.turns.map((t) => t.text).join('\n'), askedAt: stamp(queryMs) },
    haystackId: entry.questionId,
    haystack,
    gold: {
      nativeType: entry.nativeType,
      type: entry.adaptType,
      reportAs: LOCOMO_PLUS_TYPE.reportAs,
      isAbstention: false,
      evidenceSessionIds: [cueSessionId],
      evidenceTurnIds: cueTurns.map((t) => t.id),
      answer: '',
      evidenceText: cueTurns
        .filter((t) => t.text)
        .map((t) => `${t.speaker}：${t.text}`)
        .join('\n'),
    },
  };
}
