/**
 * The reader: renders a method's retrieved context and asks the question with the official LongMemEval reader prompt
 * (src/eval/qa/prompts/longmemeval-reader.ts), the question's date included.
 *
 * The context is, by default, the method's own `retrieval.context` (src/core/render.ts renders every baseline's
 * alike); `context: 'official'` re-renders the units with `renderContext`, which follows the official history layout (`### Session i:` / `Session Date:` / `Session Content:` blocks,
 * `run_generation.py`) with one block per retrieved unit and its unit text as content. Two deliberate choices:
 * - Order: units appear in the order the method ranked them (`order: 'method'`, the default), so a method's
 *   ordering is part of what is compared; `order: 'chronological'` sorts by date as the official script does
 *   (`retrieved_chunks.sort(key=lambda x: x[0])`).
 * - A retrieval with `noMemory: true` renders the explicit "No relevant memory was found" line first, so a reader
 *   can abstain on the method's signal.
 * Dates are written in LongMemEval's own format, `2023/05/30 (Tue) 23:40`. Context tokens are counted with
 * o200k_base for every question (src/llm/tokens.ts), whether or not the reader is called.
 */
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmClient } from '../../core/llm.ts';
import type { Query, Retrieval, ScoredUnit } from '../../core/types.ts';
import { formatDate, NO_MEMORY_LINE } from '../../core/render.ts';
import { countTokens } from '../../llm/tokens.ts';
import { formatPositional } from './prompts/format.ts';
import {
  LME_HISTORY_BLOCK,
  LME_READER_CHAIN_OF_NOTE,
  LME_READER_DIRECT,
  LME_READER_MAX_TOKENS_CHAIN_OF_NOTE,
  LME_READER_MAX_TOKENS_DIRECT,
  LME_READER_TEMPERATURE,
} from './prompts/longmemeval-reader.ts';

export interface RenderOptions {
  withDates: boolean;
  order?: 'method' | 'chronological';
}

export interface ReadOptions {
  /** LongMemEval's `con` reading: the step-by-step (extract, then reason) prompt. */
  chainOfNote: boolean;
  calls: CallRecord[];
  withDates?: boolean;
  order?: 'method' | 'chronological';
  /** Defaults follow the official reader: temperature 0, max tokens 500 (direct) / 800 (chain-of-note). */
  temperature?: number;
  maxTokens?: number;
  /** Call-record stage name (default `reader`). */
  stage?: string;
  /**
   * Which context text the reader gets. `method` (default): the method's own `retrieval.context` (the contract's
   * "exact text a reader would be given"; src/core/render.ts makes every baseline's look alike), with the no-memory
   * line put first when the method signals `noMemory` and its text lacks it, and rendered here when empty.
   * `official`: re-rendered from the units in LongMemEval's `### Session` layout (`renderContext`).
   */
  context?: 'method' | 'official';
}

export interface ReadResult {
  answer: string;
  /** o200k_base tokens of the rendered context. */
  contextTokens: number;
  /** The full prompt sent, for inspection. */
  prompt: string;
}

/** Dates in LongMemEval's own format (`2023/05/30 (Tue) 23:40`), shared with src/core/render.ts. */
export { formatDate };

function unitContent(s: ScoredUnit): string {
  const { unit } = s;
  // Speaker names help the reader on LoCoMo; skip when the unit text already starts with them (speakerPrefix).
  if (unit.speaker && !unit.text.startsWith(`${unit.speaker}:`)) return `${unit.speaker}: ${unit.text}`;
  return unit.text;
}

/** The context text a reader is given for a retrieval. */
export function renderContext(retrieval: Retrieval, options: RenderOptions): string {
  let units = retrieval.units;
  if (options.order === 'chronological') units = [...units].sort((a, b) => (a.unit.at < b.unit.at ? -1 : a.unit.at > b.unit.at ? 1 : 0));
  const blocks = units.map((s, i) =>
    options.withDates
      ? formatPositional(LME_HISTORY_BLOCK, String(i + 1), formatDate(s.unit.at), unitContent(s))
      : `\n### Session ${i + 1}:\nSession Content:\n${unitContent(s)}\n`,
  );
  const body = blocks.join('');
  return retrieval.noMemory ? `${NO_MEMORY_LINE}\n${body}` : body;
}

/** The full reader prompt for a question. */
export function readerPrompt(query: Query, context: string, chainOfNote: boolean): string {
  return formatPositional(chainOfNote ? LME_READER_CHAIN_OF_NOTE : LME_READER_DIRECT, context, formatDate(query.askedAt), query.text);
}

/** Renders the context, asks the reader, and returns the answer (trimmed, as the official script `.strip()`s it). */
export async function readAnswer(query: Query, retrieval: Retrieval, llm: LlmClient, options: ReadOptions): Promise<ReadResult> {
  const renderOptions: RenderOptions = { withDates: options.withDates ?? true };
  if (options.order) renderOptions.order = options.order;
  let context: string;
  if ((options.context ?? 'method') === 'official' || retrieval.context.trim() === '') {
    context = renderContext(retrieval, renderOptions);
  } else {
    context = retrieval.context;
    if (retrieval.noMemory && !context.includes(NO_MEMORY_LINE)) context = `${NO_MEMORY_LINE}\n${context}`;
  }
  const contextTokens = countTokens(context);
  const prompt = readerPrompt(query, context, options.chainOfNote);
  const result = await llm.chat(
    {
      messages: [{ role: 'user', content: prompt }],
      temperature: options.temperature ?? LME_READER_TEMPERATURE,
      maxTokens: options.maxTokens ?? (options.chainOfNote ? LME_READER_MAX_TOKENS_CHAIN_OF_NOTE : LME_READER_MAX_TOKENS_DIRECT),
    },
    { stage: options.stage ?? 'reader', calls: options.calls },
  );
  return { answer: result.text.trim(), contextTokens, prompt };
}
