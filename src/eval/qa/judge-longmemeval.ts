/**
 * The LongMemEval LLM judge: the official type-specific prompt (the abstention prompt when the question id contains
 * `_abs`, as `evaluate_qa.py` decides), one user message, temperature 0, max_tokens 10, and the strict yes/no
 * parse of src/eval/qa/verdict.ts. `repeats > 1` asks the same judge n times (the repeat index is part of the cache
 * key, so the runs are distinct calls) for mean ± sd reporting.
 */
import { InputError } from '../../core/errors.ts';
import type { LlmClient } from '../../core/llm.ts';
import { formatPositional } from './prompts/format.ts';
import {
  LME_JUDGE_ABSTENTION,
  LME_JUDGE_DEFAULT,
  LME_JUDGE_KNOWLEDGE_UPDATE,
  LME_JUDGE_MAX_TOKENS,
  LME_JUDGE_PREFERENCE,
  LME_JUDGE_TEMPERATURE,
  LME_JUDGE_TEMPORAL,
} from './prompts/longmemeval-judge.ts';
import { judgeRepeatedly, type JudgeOptions, type JudgeResult } from './judge.ts';
import { readYesNoVerdict } from './verdict.ts';

export interface LongMemEvalJudgeInput {
  questionId: string;
  /** LongMemEval `question_type`, verbatim. */
  nativeType: string;
  question: string;
  /** Gold answer (or rubric / explanation, per type). */
  answer: string;
  /** The reader's answer. */
  hypothesis: string;
}

export function isLongMemEvalAbstention(questionId: string): boolean {
  return questionId.includes('_abs');
}

/** The official judge prompt for one question (`get_anscheck_prompt`). */
export function longMemEvalJudgePrompt(input: LongMemEvalJudgeInput): string {
  const { question, answer, hypothesis } = input;
  if (isLongMemEvalAbstention(input.questionId))
    return formatPositional(LME_JUDGE_ABSTENTION, question, answer, hypothesis);
  switch (input.nativeType) {
    case 'single-session-user':
    case 'single-session-assistant':
    case 'multi-session':
      return formatPositional(LME_JUDGE_DEFAULT, question, answer, hypothesis);
    case 'temporal-reasoning':
      return formatPositional(LME_JUDGE_TEMPORAL, question, answer, hypothesis);
    case 'knowledge-update':
      return formatPositional(LME_JUDGE_KNOWLEDGE_UPDATE, question, answer, hypothesis);
    case 'single-session-preference':
      return formatPositional(LME_JUDGE_PREFERENCE, question, answer, hypothesis);
    default:
      throw new InputError(
        `no LongMemEval judge prompt for question type "${input.nativeType}"`,
        `question ${input.questionId}`,
      );
  }
}

export async function judgeLongMemEval(
  input: LongMemEvalJudgeInput,
  llm: LlmClient,
  options: JudgeOptions,
): Promise<JudgeResult> {
  return judgeWithLongMemEvalPrompt(longMemEvalJudgePrompt(input), llm, options);
}

/** One filled LongMemEval judge prompt, asked with the official settings and parsed with the yes/no rule. */
export async function judgeWithLongMemEvalPrompt(
  prompt: string,
  llm: LlmClient,
  options: JudgeOptions,
): Promise<JudgeResult> {
  return judgeRepeatedly(
    llm,
    {
      messages: [{ role: 'user', content: prompt }],
      temperature: LME_JUDGE_TEMPERATURE,
      maxTokens: LME_JUDGE_MAX_TOKENS,
    },
    (r) => readYesNoVerdict(r.text.trim()),
    options,
  );
}
