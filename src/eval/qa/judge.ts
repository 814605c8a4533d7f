/**
 * What every LLM judge shares, whatever its benchmark: the options of a judging (repeats, call records, stage), its
 * result (per run: correct or not, the raw reply, a graded score where the protocol defines one), and asking one
 * judge request `repeats` times. Every benchmark's judge and the panel's prompts are built on it.
 */
import type { CallRecord } from '../../core/interfaces.ts';
import type { ChatRequest, ChatResult, LlmClient } from '../../core/llm.ts';
import { allInOrder } from './concurrent.ts';

export interface JudgeOptions {
  /** Judge runs per question (default 1). */
  repeats?: number;
  calls: CallRecord[];
  /** Call-record stage name (default `judge`). */
  stage?: string;
}

export interface JudgeResult {
  correct: boolean[];
  raw: string[];
  /**
   * Per judge run, a graded score in [0, 1] where the protocol defines one (BEAM: the mean rubric-item score;
   * LoCoMo-Plus: its label's points); accuracy is then its mean rather than the share of `correct`.
   */
  scores?: number[];
}

/**
 * Asks the judge `repeats` times (each a distinct cache entry through `repeat`) and parses every reply with
 * `verdict`. Shared by every benchmark's judge and the panel's prompts.
 */
export async function judgeRepeatedly(
  llm: LlmClient,
  request: Omit<ChatRequest, 'repeat'>,
  verdict: (reply: ChatResult) => boolean,
  options: JudgeOptions,
): Promise<JudgeResult> {
  const replies = await allInOrder(
    Array.from(
      { length: options.repeats ?? 1 },
      (_, repeat) => () => llm.chat({ ...request, repeat }, { stage: options.stage ?? 'judge', calls: options.calls }),
    ),
  );
  return { correct: replies.map(verdict), raw: replies.map((r) => r.text) };
}
