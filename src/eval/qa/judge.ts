/**
 * Asking one judge request `repeats` times, each a distinct cache entry, every reply parsed by the protocol's verdict
 * rule (the shared types: src/core/judge.ts). Every benchmark's judge and the panel's prompts are built on it.
 */
import type { JudgeOptions, JudgeResult } from '../../core/judge.ts';
import type { ChatRequest, ChatResult, LlmClient } from '../../core/llm.ts';
import { allInOrder } from './concurrent.ts';

export type { JudgeOptions, JudgeResult };

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
