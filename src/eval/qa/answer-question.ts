/**
 * The runner's one call per (question, method) for QA: read (unless the method answered itself), then score with the
 * dataset's protocol (src/eval/qa/score-answer.ts). Errors are data: an LLM call that stays broken becomes `error`
 * on the returned row (its failed call is already in `calls`), and the run goes on. Context tokens are counted for
 * every question, answered or not.
 */
import { errorMessage, isPostponed } from '../../core/errors.ts';
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmProvider } from '../../core/llm.ts';
import type { Instance, Retrieval } from '../../core/types.ts';
import { countTokens } from '../../llm/tokens.ts';
import type { QaConfig } from './config.ts';
import type { JudgeResult } from './judge-longmemeval.ts';
import { readAnswer } from './reader.ts';
import { scoreAnswer } from './score-answer.ts';

export interface QaRow {
  answer: string | null;
  /** o200k_base tokens of the context the reader got (or would have got). */
  contextTokens: number;
  judge: JudgeResult | null;
  f1?: number;
  bleu1?: number;
  error?: string;
  /** Which step failed when `error` is set: the reader (no answer) or the judge (scoring the answer). */
  failedStage?: 'reader' | 'judge';
}

export interface AnswerQuestionInput {
  protocol: 'longmemeval' | 'locomo';
  instance: Instance;
  retrieval: Retrieval;
  /** The method's own answer, when it produces one (then no reader call). */
  methodAnswer?: string;
  /** Call-record stages of the reader and judge calls (default `reader`, `judge`; a `qa.ks` cutoff: `reader:k5`). */
  stages?: { reader: string; judge: string };
}

export async function answerQuestion(
  input: AnswerQuestionInput,
  llm: LlmProvider,
  config: QaConfig,
  calls: CallRecord[],
): Promise<QaRow> {
  const { instance, retrieval } = input;
  const row: QaRow = { answer: input.methodAnswer ?? null, contextTokens: countTokens(retrieval.context), judge: null };
  let reading = true;
  try {
    if (row.answer === null) {
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
    const scores = await scoreAnswer(
      {
        protocol: input.protocol,
        questionId: instance.query.id,
        nativeType: instance.gold.nativeType,
        question: instance.query.text,
        gold: instance.gold.answer,
        hypothesis: row.answer,
      },
      llm.has('judge') ? llm.forRole('judge') : undefined,
      { calls, repeats: config.judge.repeats, judgeAdversarial: config.judge.judgeAdversarial, ...(input.stages ? { stage: input.stages.judge } : {}) },
    );
    if (scores.judge) row.judge = scores.judge;
    if (scores.f1 !== undefined) row.f1 = scores.f1;
    if (scores.bleu1 !== undefined) row.bleu1 = scores.bleu1;
  } catch (err) {
    // A call not made now (queued for the Batch API, or over budget) is not an error: the question is finished later.
    if (isPostponed(err)) throw err;
    row.error = errorMessage(err);
    row.failedStage = reading ? 'reader' : 'judge';
  }
  return row;
}
