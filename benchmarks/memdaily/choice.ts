/**
 * MemDaily's multiple-choice protocol (MemSim, nuster1128/MemSim@db9d5d5): the reader is asked MemSim's own prompt
 * (`benchmark/methods/RetMemAgent.py` `response_answer`, Chinese, verbatim) over the retrieved messages — each
 * `[i] <message>` line with the message's time appended as MemSim's benchmark files write it (`(消息时间 …)`; the
 * place, one city per trajectory, is not indexed and so not shown) — the choices and the current time; it must answer
 * with a letter. Scored exactly, without a judge, as `benchmark/TimeFlow.py` `cal_metrics` does: spaces and
 * newlines removed (`remove_space_and_ent`), then equal to `ground_truth`. Free-form answers (questions without
 * choices, or `qa.reader.choices: free-form`) are read by the harness's reader and judged by the LongMemEval
 * default judge prompt (MemSim defines no free-form scoring; the choice is documented in docs/datasets.md).
 */
import type { CallRecord } from '../../src/core/interfaces.ts';
import type { LlmClient } from '../../src/core/llm.ts';
import type { Query, Retrieval } from '../../src/core/types.ts';
import { formatMemDailyTime } from './dates.ts';

/** MemSim calls its LLM with `fast_run(prompt)`, no sampling settings; temperature 0 keeps the reader deterministic. */
export const MEMDAILY_READER_TEMPERATURE = 0;

export function memDailyChoicePrompt(
  query: Query & { choices: Readonly<Record<string, string>> },
  retrieval: Pick<Retrieval, 'units'>,
): string {
  let prompt = '[用户消息] \n';
  retrieval.units.forEach((u, index) => {
    prompt += `[${index}] ${u.unit.text} (消息时间 ${formatMemDailyTime(u.unit.at)})\n`;
  });
  prompt += `[单选题] ${query.text} \n`;
  for (const [k, v] of Object.entries(query.choices)) prompt += `${k}: ${v}\n`;
  prompt += `当前时间是 ${formatMemDailyTime(query.askedAt)}\n`;
  prompt += '请根据[用户消息]，给出[单选题]的正确答案。\n';
  prompt += '只输出答案所对应的选项，不要输出解释或其他任何的内容。\n';
  prompt += '输出样例: A';
  return prompt;
}

/** MemSim's `remove_space_and_ent`: every space and newline removed. */
export function removeSpaceAndEnt(s: string): string {
  return s.replaceAll(' ', '').replaceAll('\n', '');
}

/** Exact multiple-choice scoring (`cal_metrics`): 1 when the cleaned reply equals the letter, else 0. */
export function scoreChoice(reply: string, correctChoice: string): number {
  return removeSpaceAndEnt(reply) === correctChoice ? 1 : 0;
}

export async function readMemDailyChoice(
  query: Query & { choices: Readonly<Record<string, string>> },
  retrieval: Pick<Retrieval, 'units'>,
  llm: LlmClient,
  calls: CallRecord[],
): Promise<{ answer: string; prompt: string }> {
  const prompt = memDailyChoicePrompt(query, retrieval);
  const r = await llm.chat(
    { messages: [{ role: 'user', content: prompt }], temperature: MEMDAILY_READER_TEMPERATURE },
    { stage: 'reader', calls },
  );
  return { answer: r.text, prompt };
}
