/**
 * The reader: asks the question with the official LongMemEval reader prompt (src/eval/qa/prompts/longmemeval-reader.ts),
 * the question's date included, over a method's retrieved context.
 *
 * Which context text: by default the method's own `retrieval.context` (the contract's "exact text a reader would be
 * given"; src/core/render.ts renders every baseline's alike), with the explicit "No relevant memory was found" line
 * put first when the method signals `noMemory`. `context: 'official'` re-renders the units with `renderContext` in
 * the official history layout of `run_generation.py` — `### Session i:` / `Session Date:` / `Session Content:`
 * blocks, one per retrieved unit — with the session content as
 * - `json` (the official default `history_format`): Python `json.dumps` of the unit's turns as
 *   `[{"role": …, "content": …}, …]` (ASCII-escaped, `", "` and `": "` separators), recovered from the haystack;
 * - `nl`: `\n\n<role>: <content stripped>` per turn, also from the haystack;
 * - `text`: the unit's own text (no haystack needed).
 * Order: the order the method ranked the units (`method`, default), so ordering is part of what is compared, or by
 * date (`chronological`) as the official script sorts them. Dates are written in LongMemEval's own format
 * (`2023/05/30 (Tue) 23:40`). Context tokens are counted with o200k_base for every question (src/llm/tokens.ts).
 *
 * Prompt caching: the official prompt already puts the fixed instructions first, the history next and the date and
 * question last, so requests over the same history share their longest prefix; each request carries a
 * `prompt_cache_key` naming its haystack (`haystackCacheKey`) so the provider routes them to the same cache. The
 * prompt text itself stays byte-identical to the official one (parity: docs/official-parity.md).
 */
import { createHash } from 'node:crypto';
import { InputError } from '../../core/errors.ts';
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmClient } from '../../core/llm.ts';
import { formatDate, NO_MEMORY_LINE } from '../../core/render.ts';
import type { Query, Retrieval, ScoredUnit, Session, Turn } from '../../core/types.ts';
import { applyContextBudget } from './context-budget.ts';
import { formatPositional } from './prompts/format.ts';
import {
  LME_HISTORY_BLOCK,
  LME_READER_CHAIN_OF_NOTE,
  LME_READER_DIRECT,
  LME_READER_MAX_TOKENS_CHAIN_OF_NOTE,
  LME_READER_MAX_TOKENS_DIRECT,
  LME_READER_TEMPERATURE,
} from './prompts/longmemeval-reader.ts';

/** Dates in LongMemEval's own format (`2023/05/30 (Tue) 23:40`), shared with src/core/render.ts. */
export { formatDate };

export type HistoryFormat = 'json' | 'nl' | 'text';

export interface RenderOptions {
  withDates: boolean;
  order?: 'method' | 'chronological';
  /** Session content format (default `text`); `json` and `nl` need `haystack`. */
  historyFormat?: HistoryFormat;
  /** The question's sessions, to recover each unit's turns for `json` / `nl`. */
  haystack?: readonly Session[];
}

export interface ReadOptions {
  /** LongMemEval's `con` reading: the step-by-step (extract, then reason) prompt. */
  chainOfNote: boolean;
  calls: CallRecord[];
  /** `method` (default): the method's own context text; `official`: `renderContext` (see the file header). */
  context?: 'method' | 'official';
  withDates?: boolean;
  order?: 'method' | 'chronological';
  historyFormat?: HistoryFormat;
  haystack?: readonly Session[];
  /** Defaults follow the official reader: temperature 0, max tokens 500 (direct) / 800 (chain-of-note). */
  temperature?: number;
  maxTokens?: number;
  /** Call-record stage name (default `reader`). */
  stage?: string;
  /** The experiment's context-token budget (`qa.reader.contextTokens`), applied to every method alike. */
  contextTokens?: number;
}

export interface ReadResult {
  answer: string;
  /** o200k_base tokens of the context given to the reader. */
  contextTokens: number;
  /** The full prompt sent, for inspection. */
  prompt: string;
  /** Tokens of the context before the budget cut it (absent when it fit). */
  contextCutFrom?: number;
}

/**
 * Python `json.dumps` with default settings: `", "` / `": "` separators and `ensure_ascii`, i.e. every non-ASCII
 * UTF-16 code unit written as `\uXXXX` (astral characters as their surrogate pair), as the official script renders.
 */
export function pythonJsonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u0080-\uffff]/g,
      (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  return JSON.stringify(value);
}

function unitText(s: ScoredUnit): string {
  const { unit } = s;
  // Speaker names help the reader on LoCoMo; skip when the unit text already starts with them (speakerPrefix).
  if (unit.speaker && !unit.text.startsWith(`${unit.speaker}:`)) return `${unit.speaker}: ${unit.text}`;
  return unit.text;
}

function turnsOf(s: ScoredUnit, turnsById: ReadonlyMap<string, Turn>): Turn[] {
  return s.unit.turnIds.map((id) => {
    const turn = turnsById.get(id);
    if (!turn) throw new InputError(`turn ${id} of unit ${s.unit.id} is not in the haystack`);
    return turn;
  });
}

function sessionContent(
  s: ScoredUnit,
  format: HistoryFormat,
  turnsById: ReadonlyMap<string, Turn> | undefined,
): string {
  if (format === 'text') return unitText(s);
  if (!turnsById) throw new InputError(`history format "${format}" needs the haystack to recover each unit's turns`);
  const turns = turnsOf(s, turnsById);
  // `run_generation.py`: json → '\n' + json.dumps(turns); nl → '\n\n{role}: {content.strip()}' per turn.
  if (format === 'json') return `\n${pythonJsonDumps(turns.map((t) => ({ role: t.role, content: t.text })))}`;
  return turns.map((t) => `\n\n${t.role}: ${t.text.trim()}`).join('');
}

/** The context text for a retrieval in the official history layout (see the file header). */
export function renderContext(retrieval: Retrieval, options: RenderOptions): string {
  const format = options.historyFormat ?? 'text';
  const turnsById = options.haystack
    ? new Map(options.haystack.flatMap((s) => s.turns.map((t) => [t.id, t] as const)))
    : undefined;
  let units = retrieval.units;
  if (options.order === 'chronological') {
    units = [...units].sort((a, b) => (a.unit.at < b.unit.at ? -1 : a.unit.at > b.unit.at ? 1 : 0));
  }
  const body = units
    .map((s, i) => {
      const content = sessionContent(s, format, turnsById);
      return options.withDates
        ? formatPositional(LME_HISTORY_BLOCK, String(i + 1), formatDate(s.unit.at), content)
        : `\n### Session ${i + 1}:\nSession Content:\n${content}\n`;
    })
    .join('');
  return retrieval.noMemory ? `${NO_MEMORY_LINE}\n${body}` : body;
}

/** The full reader prompt for a question. */
export function readerPrompt(query: Query, context: string, chainOfNote: boolean): string {
  return formatPositional(
    chainOfNote ? LME_READER_CHAIN_OF_NOTE : LME_READER_DIRECT,
    context,
    formatDate(query.askedAt),
    query.text,
  );
}

/** The context text the reader gets under `options` (see the file header). */
export function readerContext(retrieval: Retrieval, options: Omit<ReadOptions, 'chainOfNote' | 'calls'>): string {
  if ((options.context ?? 'method') === 'official' || retrieval.context.trim() === '') {
    const render: RenderOptions = { withDates: options.withDates ?? true };
    if (options.order) render.order = options.order;
    if (options.historyFormat) render.historyFormat = options.historyFormat;
    if (options.haystack) render.haystack = options.haystack;
    return renderContext(retrieval, render);
  }
  const context = retrieval.context;
  return retrieval.noMemory && !context.includes(NO_MEMORY_LINE) ? `${NO_MEMORY_LINE}\n${context}` : context;
}

/**
 * The `prompt_cache_key` of a question's haystack: a hash of its session ids, so every question over the same
 * conversation (LoCoMo: one per sample; LongMemEval: one per question) shares one key. Ids only: no dataset text is
 * sent in the key.
 */
export function haystackCacheKey(haystack: readonly Pick<Session, 'id'>[]): string {
  return `adaptmr-hs-${createHash('sha256')
    .update(haystack.map((s) => s.id).join('\u0000'))
    .digest('hex')
    .slice(0, 24)}`;
}

/** Asks the reader and returns the answer (trimmed, as the official script `.strip()`s it). */
export async function readAnswer(
  query: Query,
  retrieval: Retrieval,
  llm: LlmClient,
  options: ReadOptions,
): Promise<ReadResult> {
  const budgeted = applyContextBudget(readerContext(retrieval, options), options.contextTokens);
  const context = budgeted.text;
  const contextTokens = budgeted.tokens;
  const prompt = readerPrompt(query, context, options.chainOfNote);
  const result = await llm.chat(
    {
      messages: [{ role: 'user', content: prompt }],
      temperature: options.temperature ?? LME_READER_TEMPERATURE,
      maxTokens:
        options.maxTokens ?? (options.chainOfNote ? LME_READER_MAX_TOKENS_CHAIN_OF_NOTE : LME_READER_MAX_TOKENS_DIRECT),
      ...(options.haystack && options.haystack.length > 0
        ? { promptCacheKey: haystackCacheKey(options.haystack) }
        : {}),
    },
    { stage: options.stage ?? 'reader', calls: options.calls },
  );
  return {
    answer: result.text.trim(),
    contextTokens,
    prompt,
    ...(budgeted.cutFrom !== undefined ? { contextCutFrom: budgeted.cutFrom } : {}),
  };
}
