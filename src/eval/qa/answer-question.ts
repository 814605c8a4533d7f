/**
 * The runner's one call per (question, method) for QA: read (unless the method answered itself), then score with the
 * dataset's protocol (src/eval/qa/score-answer.ts). Errors are data: an LLM call that stays broken becomes `error`
 * on the returned row (its failed call is already in `calls`), and the run goes on. Context tokens are counted for
 * every question, answered or not.
 */
import { errorMessage, isPostponed } from '../../core/errors.ts';
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmClient, LlmProvider } from '../../core/llm.ts';
import type { JudgePromptKind } from '../../core/qa-config.ts';
import type { Instance, Retrieval } from '../../core/types.ts';
import { countTokens } from '../../llm/tokens.ts';
import type { QaConfig } from '../../core/qa-config.ts';
import type { JudgeResult } from './judge.ts';
import { readLocomoPlus } from './locomo-plus.ts';
import { readMemDailyChoice } from './memdaily.ts';
import { readAnswer } from './reader.ts';
import { scoreAnswer, type AnswerProtocol } from './score-answer.ts';

export interface QaRow {
  answer: string | null;
  /** o200k_base tokens of the context the reader got (or would have got). */
  contextTokens: number;
  /** o200k tokens of the answer (0 when there is none). */
  answerTokens: number;
  judge: JudgeResult | null;
  f1?: number;
  bleu1?: number;
  /** Further metrics of the protocol (score-answer.ts `AnswerScores.metrics`). */
  metrics?: Record<string, number>;
  error?: string;
  /** Which step failed when `error` is set: the reader (no answer) or the judge (scoring the answer). */
  failedStage?: 'reader' | 'judge';
}

export interface AnswerQuestionInput {
  protocol: AnswerProtocol;
  instance: Instance;
  retrieval: Retrieval;
  /** The method's own answer, when it produces one (then no reader call). */
  methodAnswer?: string;
  /** The gold answer the judge compares with (default the instance's): the run's headline gold version. */
  gold?: string;
  /** Call-record stages of the reader and judge calls (default `reader`, and `judge` or the primary judge's; a `qa.ks`
   * cutoff: `reader:k5`, `judge:k5`). */
  stages?: { reader: string; judge: string };
}

/** The judge that scores the answer (a panel's primary judge); default: the judge role with the official prompt. */
export interface PrimaryJudge {
  client: LlmClient;
  prompt: JudgePromptKind;
  /** Call-record stage (`judge`, or `judge:<id>` in a panel). */
  stage: string;
}

/** The question with its choices when it is asked as multiple choice (MemDaily with `reader.choices: letter`), else undefined. */
function multipleChoice(
  protocol: AnswerProtocol,
  instance: Instance,
  config: QaConfig,
): (Instance['query'] & { choices: Readonly<Record<string, string>> }) | undefined {
  const q = instance.query;
  if (
    protocol !== 'memdaily' ||
    config.reader.choices !== 'letter' ||
    !q.choices ||
    instance.gold.correctChoice === undefined
  )
    return undefined;
  return { ...q, choices: q.choices };
}

export async function answerQuestion(
  input: AnswerQuestionInput,
  llm: LlmProvider,
  config: QaConfig,
  calls: CallRecord[],
  judge?: PrimaryJudge,
): Promise<QaRow> {
  const { instance, retrieval } = input;
  const row: QaRow = {
    answer: input.methodAnswer ?? null,
    contextTokens: countTokens(retrieval.context),
    answerTokens: 0,
    judge: null,
  };
  let reading = true;
  try {
    const choices = multipleChoice(input.protocol, instance, config);
    if (row.answer === null && choices) {
      const read = await readMemDailyChoice(choices, retrieval, llm.forRole('reader'), calls);
      row.answer = read.answer;
      row.contextTokens = countTokens(read.prompt);
    } else if (row.answer === null && input.protocol === 'locomo-plus') {
      row.answer = await readLocomoPlus(instance.query, retrieval, instance.haystack, llm.forRole('reader'), calls);
    } else if (row.answer === null) {
      const read = await readAnswer(instance.query, retrieval, llm.forRole('reader'), {
        chainOfNote: config.reader.chainOfNote,
        context: config.reader.context,
        withDates: config.reader.withDates,
        order: config.reader.order,
        historyFormat: config.reader.historyFormat,
        haystack: instance.haystack,
        calls,
        ...(input.stages ? { stage: input.stages.reader } : {}),
      });
      row.answer = read.answer;
      row.contextTokens = read.contextTokens;
    }
    reading = false;
    row.answerTokens = countTokens(row.answer);
    const scores = await scoreAnswer(
      {
        protocol: input.protocol,
        questionId: instance.query.id,
        nativeType: instance.gold.nativeType,
        question: instance.query.text,
        gold: input.gold ?? instance.gold.answer,
        hypothesis: row.answer,
        ...(instance.gold.rubric ? { rubric: instance.gold.rubric } : {}),
        ...(choices && instance.gold.correctChoice !== undefined ? { correctChoice: instance.gold.correctChoice } : {}),
        ...(instance.gold.evidenceText !== undefined ? { evidenceText: instance.gold.evidenceText } : {}),
      },
      judge?.client ?? (llm.has('judge') ? llm.forRole('judge') : undefined),
      {
        calls,
        repeats: config.judge.repeats,
        judgeAdversarial: config.judge.judgeAdversarial,
        ...(judge ? { prompt: judge.prompt, stage: judge.stage } : {}),
        ...(input.stages ? { stage: input.stages.judge } : {}),
      },
    );
    if (scores.judge) row.judge = scores.judge;
    if (scores.f1 !== undefined) row.f1 = scores.f1;
    if (scores.bleu1 !== undefined) row.bleu1 = scores.bleu1;
    if (scores.metrics) row.metrics = scores.metrics;
  } catch (err) {
    // A call not made now (queued for the Batch API, or over budget) is not an error: the question is finished later.
    if (isPostponed(err)) throw err;
    row.error = errorMessage(err);
    row.failedStage = reading ? 'reader' : 'judge';
  }
  return row;
}
