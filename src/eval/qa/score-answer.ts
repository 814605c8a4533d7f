/**
 * One entry point for the runner: scores a reader's answer to one question with the protocol of its dataset.
 *
 * - LongMemEval: the official LLM judge (src/eval/qa/judge-longmemeval.ts) — the only answer metric the benchmark
 *   defines.
 * - LoCoMo: LoCoMo's token F1 with its category rules and Mem0's BLEU-1 (no LLM needed), plus the Mem0 LLM judge
 *   when a judge model is configured. Mem0 skips category 5 (adversarial) in its judge; so do we unless
 *   `judgeAdversarial` is set. Category 5 has no gold answer in most items, so its F1 is LoCoMo's phrase rule and
 *   BLEU-1 is 0 when the gold answer is empty.
 * LLM failures propagate (`LlmCallError`): the caller records the error on the question's row.
 */
import { InputError } from '../../core/errors.ts';
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmClient } from '../../core/llm.ts';
import { bleu1, locomoAnswerScore } from './answer-metrics.ts';
import { judgeLocomo } from './judge-locomo.ts';
import { type JudgeResult, judgeLongMemEval } from './judge-longmemeval.ts';

export interface AnswerToScore {
  /** Which protocol: LongMemEval (any split) or LoCoMo. */
  protocol: 'longmemeval' | 'locomo';
  questionId: string;
  /** LongMemEval `question_type`, or LoCoMo's category number as a string. */
  nativeType: string;
  question: string;
  /** Gold answer (LongMemEval: answer, rubric or abstention explanation). */
  gold: string;
  hypothesis: string;
}

export interface AnswerScores {
  judge?: JudgeResult;
  /** LoCoMo token F1 (category rules applied). */
  f1?: number;
  /** Mem0 BLEU-1. */
  bleu1?: number;
}

export interface ScoreOptions {
  calls: CallRecord[];
  /** Judge runs per question (default 1). */
  repeats?: number;
  /** Judge LoCoMo category 5 too (Mem0 does not). */
  judgeAdversarial?: boolean;
  /** Call-record stage of the judge calls (default `judge`). */
  stage?: string;
}

export async function scoreAnswer(input: AnswerToScore, judge: LlmClient | undefined, options: ScoreOptions): Promise<AnswerScores> {
  const judgeOptions = { calls: options.calls, repeats: options.repeats ?? 1, ...(options.stage ? { stage: options.stage } : {}) };
  if (input.protocol === 'longmemeval') {
    if (!judge) return {};
    return { judge: await judgeLongMemEval({ ...input, answer: input.gold }, judge, judgeOptions) };
  }
  const category = Number(input.nativeType);
  if (!Number.isInteger(category) || category < 1 || category > 5) {
    throw new InputError(`LoCoMo category must be 1–5, got "${input.nativeType}"`, `question ${input.questionId}`);
  }
  const scores: AnswerScores = {
    f1: locomoAnswerScore(input.hypothesis, input.gold, category),
    bleu1: bleu1(input.hypothesis, input.gold),
  };
  if (judge && (category !== 5 || options.judgeAdversarial)) {
    scores.judge = await judgeLocomo({ question: input.question, answer: input.gold, hypothesis: input.hypothesis }, judge, judgeOptions);
  }
  return scores;
}
