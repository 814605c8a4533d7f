/**
 * The runner's one call per (question, method) for QA: read (the benchmark's own reader where its protocol has one,
 * else the harness's reader; none when the method answered itself), then score with the benchmark's protocol
 * (`BenchmarkQa.score`, src/core/benchmark.ts). Errors are data: an LLM call that stays broken becomes `error`
 * on the returned row (its failed call is already in `calls`), and the run goes on. Context tokens are counted for
 * every question, answered or not.
 */
import type { AnswerToScore, BenchmarkQa, ProtocolRead } from '../../core/benchmark.ts';
import { errorMessage, isPostponed } from '../../core/errors.ts';
import type { CallRecord } from '../../core/interfaces.ts';
import type { JudgeResult } from '../../core/judge.ts';
import type { LlmClient, LlmProvider } from '../../core/llm.ts';
import type { JudgePromptKind, QaConfig } from '../../core/qa-config.ts';
import type { Instance, Retrieval } from '../../core/types.ts';
import { countTokens } from '../../llm/tokens.ts';
import { applyContextBudget } from './context-budget.ts';
import { readAnswer } from './reader.ts';

export interface QaRow {
  answer: string | null;
  /** o200k_base tokens of the context the reader got (or would have got). */
  contextTokens: number;
  /** o200k tokens of the answer (0 when there is none). */
  answerTokens: number;
  judge: JudgeResult | null;
  f1?: number;
  bleu1?: number;
  /** Further metrics of the protocol (`AnswerScores.metrics`, src/core/benchmark.ts). */
  metrics?: Record<string, number>;
  error?: string;
  /** Which step failed when `error` is set: the reader (no answer) or the judge (scoring the answer). */
  failedStage?: 'reader' | 'judge';
  /** Tokens of the context before the experiment's budget (`qa.reader.contextTokens`) cut it; absent when it fit. */
  contextCutFrom?: number;
}

export interface AnswerQuestionInput {
  /** The QA protocol of the question's benchmark. */
  qa: BenchmarkQa;
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

export async function answerQuestion(
  input: AnswerQuestionInput,
  llm: LlmProvider,
  config: QaConfig,
  calls: CallRecord[],
  judge?: PrimaryJudge,
): Promise<QaRow> {
  const { instance } = input;
  // The budget applies to every reading alike: the protocol's own reader gets the budgeted context text too.
  const budget = config.reader.contextTokens;
  const budgeted = applyContextBudget(input.retrieval.context, budget);
  const retrieval = { ...input.retrieval, context: budgeted.text };
  const row: QaRow = {
    answer: input.methodAnswer ?? null,
    contextTokens: budgeted.tokens,
    answerTokens: 0,
    judge: null,
    ...(budgeted.cutFrom !== undefined ? { contextCutFrom: budgeted.cutFrom } : {}),
  };
  let reading = true;
  try {
    const read = await protocolRead({ ...input, retrieval }, llm, config, calls);
    if (read) {
      row.answer = read.answer;
      if (read.contextTokens !== undefined) row.contextTokens = read.contextTokens;
    } else if (row.answer === null) {
      const harness = await readAnswer(instance.query, retrieval, llm.forRole('reader'), {
        chainOfNote: config.reader.chainOfNote,
        context: config.reader.context,
        withDates: config.reader.withDates,
        order: config.reader.order,
        historyFormat: config.reader.historyFormat,
        haystack: instance.haystack,
        calls,
        ...(budget !== undefined ? { contextTokens: budget } : {}),
        ...(input.stages ? { stage: input.stages.reader } : {}),
      });
      row.answer = harness.answer;
      row.contextTokens = harness.contextTokens;
      if (harness.contextCutFrom !== undefined) row.contextCutFrom = harness.contextCutFrom;
      else delete row.contextCutFrom;
    }
    reading = false;
    row.answerTokens = countTokens(row.answer);
    const scores = await input.qa.score(
      { ...scoreInput(input, row.answer), ...read?.score },
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

/** The benchmark's own reading, when its protocol has one for this question. */
function protocolRead(
  input: AnswerQuestionInput,
  llm: LlmProvider,
  config: QaConfig,
  calls: CallRecord[],
): Promise<ProtocolRead | undefined> {
  if (!input.qa.read) return Promise.resolve(undefined);
  const { instance, retrieval, methodAnswer } = input;
  return input.qa.read({ instance, retrieval, methodAnswer, config, llm, calls });
}

/** What the protocol scores: the question, its gold (the run's headline version) and the answer. */
function scoreInput(input: AnswerQuestionInput, answer: string): AnswerToScore {
  const { instance } = input;
  return {
    protocol: input.qa.protocol,
    questionId: instance.query.id,
    nativeType: instance.gold.nativeType,
    question: instance.query.text,
    gold: input.gold ?? instance.gold.answer,
    hypothesis: answer,
    ...(instance.gold.rubric ? { rubric: instance.gold.rubric } : {}),
    ...(instance.gold.evidenceText !== undefined ? { evidenceText: instance.gold.evidenceText } : {}),
  };
}
