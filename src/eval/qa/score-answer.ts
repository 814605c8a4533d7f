/**
 * One entry point for the runner: scores a reader's answer to one question with the protocol of its dataset.
 *
 * - LongMemEval: the official LLM judge (src/eval/qa/judge-longmemeval.ts) — the only answer metric the benchmark
 *   defines.
 * - LoCoMo: LoCoMo's token F1 with its category rules and Mem0's BLEU-1 (no LLM needed), plus the Mem0 LLM judge
 *   when a judge model is configured. Mem0 skips category 5 (adversarial) in its judge; so do we unless
 *   `judgeAdversarial` is set. Category 5 has no gold answer in most items, so its F1 is LoCoMo's phrase rule and
 *   BLEU-1 is 0 when the gold answer is empty.
 * - BEAM: the rubric judge, one call per rubric item, and the event-ordering score (judge-beam.ts).
 * - MemDaily: a letter scored exactly against `ground_truth` (no judge), or a free-form answer judged with
 *   LongMemEval's default prompt (memdaily.ts).
 * - LoCoMo-Plus: the "Cognitive" judge against the cue (locomo-plus.ts); there is no reference answer.
 * LongMemEval and LoCoMo answers can be judged with any panel prompt (panel.ts: official LongMemEval, LoCoMo/Mem0,
 * strict); BEAM, MemDaily and LoCoMo-Plus keep the judge their benchmark defines whatever the panel asks.
 * LLM failures propagate (`LlmCallError`): the caller records the error on the question's row.
 */
import { InputError } from '../../core/errors.ts';
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmClient } from '../../core/llm.ts';
import type { JudgePromptKind } from '../../core/qa-config.ts';
import { bleu1, locomoAnswerScore } from './answer-metrics.ts';
import { type JudgeResult, judgeRepeatedly } from './judge.ts';
import { judgeBeam } from './judge-beam.ts';
import { judgeLocomoPlus } from './locomo-plus.ts';
import { scoreChoice } from './memdaily.ts';
import { formatPositional } from './prompts/format.ts';
import { LME_JUDGE_DEFAULT, LME_JUDGE_MAX_TOKENS, LME_JUDGE_TEMPERATURE } from './prompts/longmemeval-judge.ts';
import { isJudged } from './exclusions.ts';
import { judgeAnswer, officialJudgePrompt } from './panel.ts';
import { parseYesNoVerdict } from './verdict.ts';

/** The answer protocols: one per dataset format (src/data/source.ts `DatasetFormat`). */
export type AnswerProtocol = 'longmemeval' | 'locomo' | 'beam' | 'memdaily' | 'locomo-plus';

export interface AnswerToScore {
  /** Which protocol: LongMemEval (any split), LoCoMo, BEAM, MemDaily or LoCoMo-Plus. */
  protocol: AnswerProtocol;
  questionId: string;
  /** LongMemEval `question_type`, or LoCoMo's category number as a string. */
  nativeType: string;
  question: string;
  /** Gold answer (LongMemEval: answer, rubric or abstention explanation). */
  gold: string;
  hypothesis: string;
  /** BEAM: the rubric items (the scored gold). */
  rubric?: readonly string[];
  /** MemDaily answered by letter: the correct letter (scored exactly, no judge). */
  correctChoice?: string;
  /** LoCoMo-Plus: the cue the judge checks the reply against. */
  evidenceText?: string;
}

export interface AnswerScores {
  judge?: JudgeResult;
  /** LoCoMo token F1 (category rules applied). */
  f1?: number;
  /** Mem0 BLEU-1. */
  bleu1?: number;
  /** Further per-question metrics the protocol defines (MemDaily: exact `accuracy`; BEAM event ordering: `event_order`, `kendall_tau_b`). */
  metrics?: Record<string, number>;
}

export interface ScoreOptions {
  calls: CallRecord[];
  /** Judge runs per question (default 1). */
  repeats?: number;
  /** Judge LoCoMo category 5 too (Mem0 does not). */
  judgeAdversarial?: boolean;
  /** The judge's prompt on LongMemEval and LoCoMo (default: the dataset's official one). */
  prompt?: JudgePromptKind | undefined;
  /** Call-record stage of the judge calls (default `judge`). */
  stage?: string;
}

export async function scoreAnswer(
  input: AnswerToScore,
  judge: LlmClient | undefined,
  options: ScoreOptions,
): Promise<AnswerScores> {
  const judgeOptions = {
    calls: options.calls,
    repeats: options.repeats ?? 1,
    ...(options.stage ? { stage: options.stage } : {}),
  };
  switch (input.protocol) {
    case 'longmemeval':
      if (!judge) return {};
      return {
        judge: await judgeAnswer(
          { ...input, protocol: 'longmemeval' },
          options.prompt ?? officialJudgePrompt('longmemeval'),
          judge,
          judgeOptions,
        ),
      };
    case 'beam': {
      if (!judge) return {};
      if (!input.rubric) throw new InputError('a BEAM question needs its rubric', `question ${input.questionId}`);
      return judgeBeam(
        { ability: input.nativeType, question: input.question, rubric: input.rubric, response: input.hypothesis },
        judge,
        judgeOptions,
      );
    }
    case 'memdaily':
      if (input.correctChoice !== undefined)
        return { metrics: { accuracy: scoreChoice(input.hypothesis, input.correctChoice) } };
      if (!judge) return {};
      return {
        judge: await judgeRepeatedly(
          judge,
          {
            messages: [
              {
                role: 'user',
                content: formatPositional(LME_JUDGE_DEFAULT, input.question, input.gold, input.hypothesis),
              },
            ],
            temperature: LME_JUDGE_TEMPERATURE,
            maxTokens: LME_JUDGE_MAX_TOKENS,
          },
          (r) => parseYesNoVerdict(r.text.trim()),
          judgeOptions,
        ),
      };
    case 'locomo-plus':
      if (!judge) return {};
      return {
        judge: await judgeLocomoPlus(
          { evidence: input.evidenceText ?? '', prediction: input.hypothesis },
          judge,
          judgeOptions,
        ),
      };
    case 'locomo':
      break;
  }
  const category = Number(input.nativeType);
  if (!Number.isInteger(category) || category < 1 || category > 5) {
    throw new InputError(`LoCoMo category must be 1–5, got "${input.nativeType}"`, `question ${input.questionId}`);
  }
  const scores: AnswerScores = {
    f1: locomoAnswerScore(input.hypothesis, input.gold, category),
    bleu1: bleu1(input.hypothesis, input.gold),
  };
  if (judge && isJudged('locomo', String(category), options.judgeAdversarial ?? false)) {
    scores.judge = await judgeAnswer(
      { ...input, protocol: 'locomo' },
      options.prompt ?? officialJudgePrompt('locomo'),
      judge,
      judgeOptions,
    );
  }
  return scores;
}
