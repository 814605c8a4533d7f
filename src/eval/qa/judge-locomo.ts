/**
 * The LoCoMo LLM judge as Mem0's evaluation runs it (`evaluation/metrics/llm_judge.py`): the ACCURACY_PROMPT as one
 * user message, temperature 0, a JSON reply `{"label": "CORRECT" | "WRONG"}`. The JSON is parsed tolerantly (code
 * fences, prose around it) and the label strictly (src/eval/qa/verdict.ts). Mem0 asks with
 * `response_format={"type": "json_object"}`; here the request carries a JSON schema, and the judge role's
 * `structuredOutput` setting decides how it is sent (`json-object` reproduces Mem0's request exactly).
 * Mem0 skips category 5 (adversarial); the caller decides which questions to judge.
 */
import type { LlmClient } from '../../core/llm.ts';
import { judgeRepeatedly, type JudgeOptions, type JudgeResult } from './judge.ts';
import { formatNamed } from './prompts/format.ts';
import { MEM0_JUDGE_PROMPT, MEM0_JUDGE_TEMPERATURE } from './prompts/mem0-judge.ts';
import { readLocomoVerdict } from './verdict.ts';

export interface LocomoJudgeInput {
  question: string;
  answer: string;
  hypothesis: string;
}

export const LOCOMO_JUDGE_SCHEMA = {
  type: 'object',
  properties: { label: { type: 'string', enum: ['CORRECT', 'WRONG'] } },
  required: ['label'],
  additionalProperties: false,
} as const;

export function locomoJudgePrompt(input: LocomoJudgeInput): string {
  return formatNamed(MEM0_JUDGE_PROMPT, {
    question: input.question,
    gold_answer: input.answer,
    generated_answer: input.hypothesis,
  });
}

export async function judgeLocomo(
  input: LocomoJudgeInput,
  llm: LlmClient,
  options: JudgeOptions,
): Promise<JudgeResult> {
  return judgeRepeatedly(
    llm,
    {
      messages: [{ role: 'user', content: locomoJudgePrompt(input) }],
      temperature: MEM0_JUDGE_TEMPERATURE,
      jsonSchema: { name: 'locomo_verdict', schema: { ...LOCOMO_JUDGE_SCHEMA } },
    },
    (r) => readLocomoVerdict(r.text, r.json),
    options,
  );
}
