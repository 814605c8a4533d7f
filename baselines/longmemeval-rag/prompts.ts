/**
 * The LongMemEval memory framework's LLM prompts, verbatim from the official code (xiaowu0162/LongMemEval, commit
 * 9e0b455f4ef0e2ab8f2e582289761153549043fc), zero-shot mode (the scripts' `mode = 'zero-shot'` branch: no in-context
 * examples), and the parsing of their replies:
 *
 * - session summary: src/index_expansion/batch_expansion_session_summ.py (`summarize_session`, max_tokens 500);
 * - keyphrases: batch_expansion_session_keyphrases.py / batch_expansion_turn_keyphrases.py (max_tokens 100;
 *   "Separate each keyphrase with a semicolon");
 * - user facts: batch_expansion_session_userfact.py / batch_expansion_turn_userfact.py (json list of strings);
 * - timestamped events: batch_expansion_session_temp_event.py (json list of {date, event});
 * - time range of a question: src/index_expansion/temp_query_search_pruning.py (`infer_time_range`, few-shot, the
 *   official ten examples kept: they are the prompt).
 *
 * Where the official code formats a turn as `role：content` (full-width colon), so do we. The unit text stands for
 * the dialogue (our units already join their turns with speaker/role context), which for session and round values
 * includes the assistant's replies where the official user-fact prompts list only the user's messages — see README.
 */
import { z } from 'zod';
import type { ChatMessage } from '../../src/core/llm.ts';
import { readJson } from '../llm-mode.ts';

export type ExpansionKind = 'summary' | 'keyphrase' | 'userfact';
/** `session` prompts for session values; `round` prompts (the official "turn" expansions) for turn and round values. */
export type ExpansionScope = 'session' | 'round';

const DIALOGUE_HEAD = 'Below is a transcript of a conversation between a human user and an AI assistant.';
const ROUND_HEAD = 'Below is a transcript of a round of conversation between a human user and an AI assistant.';

const USERFACT_SYSTEM_SESSION =
  'You will be given a list of messages from a human user to an AI assistant. Extract all the personal information, life events, experience, and preferences related to the user. Make sure you include all details such as life events, personal experience, preferences, specific numbers, locations, or dates. State each piece of information in a simple sentence. Put these sentences in a json list, each element being a standalone personal fact about the user. Minimize the coreference across the facts, e.g., replace pronouns with actual entities. If there is no specific events, personal information, or preference mentioned, just generate an empty list.';
const USERFACT_SYSTEM_ROUND =
  'You will be given a message from a human user to an AI assistant. Extract all the personal information, life events, experience, and preferences related to the user. Make sure you include all details such as life events, personal experience, preferences, specific numbers, locations, or dates. State each piece of information in a simple sentence. Put these sentences in a json list, each element being a standalone personal fact about the user. Minimize the coreference across the facts, e.g., replace pronouns with actual entities. If there is no specific events, personal information, or preference mentioned, just generate an empty list.';

/** `role：content` lines as the official scripts build `dialogue_string`. */
export function dialogueString(turns: readonly { role: string; text: string }[]): string {
  return turns.map((t) => `\n${t.role}：${t.text}`).join('');
}

export function expansionPrompt(
  kind: ExpansionKind,
  scope: ExpansionScope,
  dialogue: string,
): { messages: ChatMessage[]; maxTokens: number } {
  if (kind === 'summary') {
    // Session summaries exist only at session level in the official code; rounds reuse the session wording.
    const text = `${DIALOGUE_HEAD} Please summarize the following dialogue as concisely as possible in a short paragraph, extracting the main themes and key information. In your summary, focus more on what the user mentioned or asked for. Dialogue content:\n${dialogue}`;
    return { messages: [{ role: 'user', content: text }], maxTokens: 500 };
  }
  if (kind === 'keyphrase') {
    const head =
      scope === 'session'
        ? `${DIALOGUE_HEAD} Generate a list of keyphrases for the session.`
        : `${ROUND_HEAD} Generate a list of keyphrases for the round.`;
    return {
      messages: [
        { role: 'user', content: `${head} Separate each keyphrase with a semicolon. Dialogue content:\n${dialogue}` },
      ],
      maxTokens: 100,
    };
  }
  const system = scope === 'session' ? USERFACT_SYSTEM_SESSION : USERFACT_SYSTEM_ROUND;
  const user =
    scope === 'session'
      ? `Human user messages:\n${dialogue}\n\nPersonal facts about the user (a list of strings in json format; do not generate anything else):`
      : `Human user message:\n${dialogue}\n\nPersonal facts about the user (a list of strings in json format; do not generate anything else):`;
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    maxTokens: 2000,
  };
}

/**
 * The expansion items of a reply, as `resolve_expansion` (src/retrieval/index_expansion_utils.py) sees them before
 * joining: a summary or a keyphrase string is one item (split into sentences / `;`-separated phrases when `split`);
 * user facts are a list (joined with spaces into one item unless `split`). `undefined` = the reply did not parse (the
 * official code stores None and then treats it as an empty string).
 */
export function parseExpansion(kind: ExpansionKind, reply: string, split: boolean): string[] | undefined {
  if (kind === 'userfact') {
    const facts = readJson(stripFences(reply), z.array(z.unknown()));
    if (!facts) return undefined;
    const items = facts.map((f) => (typeof f === 'string' ? f : JSON.stringify(f)));
    return split ? items : items.length > 0 ? [items.join(' ')] : [];
  }
  const text = reply.trim();
  if (!split) return [text];
  if (kind === 'keyphrase')
    return text
      .split(/[;；]/u)
      .map((s) => s.trim())
      .filter((s) => s !== '');
  return text
    .split(/(?<=[.?!。？！])\s*/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The official scripts strip ```json fences before json.loads. */
function stripFences(reply: string): string {
  return reply
    .replace(/```json/gu, '')
    .replace(/```/gu, '')
    .trim();
}

const EVENTS_SYSTEM =
  'You will be given a list of messages from a human user to an AI assistant, as well as the time the conversation took place. Extract all events related to the user as long as its date is specified or could be inferred. If the time some event took place cannot be inferred, do not extract that event. Return the events in a json list where each item contains two fields: "date" and "event". Write date in the form YYYY/MM/DD. If there is no specific event, just write an empty list.';

/** batch_expansion_session_temp_event.py: the session's dated events (used by the time-aware query expansion). */
export function eventsPrompt(sessionDate: string, dialogue: string): { messages: ChatMessage[]; maxTokens: number } {
  const user = `Conversation date: ${sessionDate}\nHuman user messages:\n${dialogue}\n\nPersonal facts about the user with dates (a list of dicts in json format; do not generate anything else):`;
  return {
    messages: [
      { role: 'system', content: EVENTS_SYSTEM },
      { role: 'user', content: user },
    ],
    maxTokens: 2000,
  };
}

const YMD = /^(\d{4})[/-](\d{2})[/-](\d{2})$/u;

/** `YYYY/MM/DD` → `YYYY-MM-DD`, or undefined. */
export function normaliseDay(date: unknown): string | undefined {
  if (typeof date !== 'string') return undefined;
  const m = YMD.exec(date.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** Dates (`YYYY-MM-DD`) of the events in a reply; items without a valid date are skipped as the official loop does. */
export function parseEventDates(reply: string): string[] | undefined {
  const events = readJson(stripFences(reply), z.array(z.unknown()));
  if (!events) return undefined;
  const days: string[] = [];
  for (const e of events) {
    const day = typeof e === 'object' && e !== null ? normaliseDay((e as { date?: unknown }).date) : undefined;
    if (day) days.push(day);
  }
  return days;
}

const RANGE_SYSTEM =
  'You will be given a question from a human user asking about some prvious events, as well as the time the question is asked. Infer a potential time range such that the events happening in this range is likely to help to answer the question (a start date and an end date). Write a json dict two fields: "start" and "end". Write date in the form YYYY/MM/DD. If the question does not have any temporal referencea, do not attempt to guess a time range. Instead, just say N/A.';
const RANGE_USER = (date: string, question: string): string =>
  `Question date: ${date}\nQuestion:\n${question}\n\nRelevant Date Range(dict in json format; do not generate anything else):`;
const RANGE_EXAMPLES: [string, string, string][] = [
  [
    '2023/07/01 (Sat) 23:13',
    'What was the date on which I attended the first BBQ event in June?',
    '{"start": "2023/06/01", "end": "2023/06/30"}',
  ],
  [
    '2023/04/10 (Mon) 08:05',
    'Where did I attend the religious activity last week?',
    '{"start": "2023/04/03", "end": "2023/04/09"}',
  ],
  [
    '2023/04/01 (Sat) 20:22',
    'What did I do with Rachel on the Wednesday two months ago?',
    '{"start": "2023/01/25", "end": "2023/02/05"}',
  ],
  [
    '2023/05/30 (Tue) 01:50',
    'Which pair of shoes did I clean last month?',
    '{"start": "2023/04/01", "end": "2023/04/30"}',
  ],
  [
    '2023/04/18 (Tue) 02:06',
    'Who did I meet with during the lunch last Tuesday?',
    '{"start": "2023/04/10", "end": "2023/04/12"}',
  ],
  ['2023/05/27 (Sat) 01:55', 'How many months ago did I book the Airbnb in San Francisco?', 'N/A'],
  ['2023/09/04 (Mon) 17:07', 'How long have I been using my Fitbit Charge 3?', 'N/A'],
  ['2023/10/27 (Fri) 13:00', 'How many bikes do I currently own?', 'N/A'],
  [
    '2023/12/18 (Mon) 04:17',
    'What was the amount I was pre-approved for when I got my mortgage from Wells Fargo?',
    'N/A',
  ],
  [
    '2023/11/10 (Fri) 04:20',
    'How many engineers do I lead when I just started my new role as Senior Software Engineer? How many engineers do I lead now?',
    'N/A',
  ],
];

export function timeRangePrompt(
  questionDate: string,
  question: string,
): { messages: ChatMessage[]; maxTokens: number } {
  const messages: ChatMessage[] = [{ role: 'system', content: RANGE_SYSTEM }];
  for (const [d, q, a] of RANGE_EXAMPLES)
    messages.push({ role: 'user', content: RANGE_USER(d, q) }, { role: 'assistant', content: a });
  messages.push({ role: 'user', content: RANGE_USER(questionDate, question) });
  return { messages, maxTokens: 2000 };
}

/**
 * `infer_time_range`'s reading of the reply: JSON {start, end} → the range (`YYYY-MM-DD`), anything else (N/A,
 * prose, bad dates) → none. The official "hack" — a start date inside the question date string means no range —
 * is kept: `questionDay` is the question's own day.
 */
export function parseTimeRange(reply: string, questionDay: string): { start: string; end: string } | undefined {
  const range = readJson(stripFences(reply), z.object({ start: z.unknown(), end: z.unknown() }));
  if (!range) return undefined;
  const start = normaliseDay(range.start);
  const end = normaliseDay(range.end);
  if (!start || !end || start === questionDay) return undefined;
  return start <= end ? { start, end } : { start: end, end: start };
}
