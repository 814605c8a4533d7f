/**
 * Scores prediction lines against a dataset's gold answers with the same code the runner uses: LoCoMo F1 (category
 * rules), Mem0 F1, Mem0 BLEU-1 (NLTK 3.8.1 tokens) and, with a judge client, the benchmark's QA protocol
 * (src/run/benchmark-registry.ts; LongMemEval: the official type-specific prompt; LoCoMo: Mem0's CORRECT/WRONG
 * judge, category 5 skipped as Mem0 does unless `judgeAdversarial`). Each line is scored on its own, so a question
 * id may repeat (several candidates for one question). A judge failure is recorded on its line (`judge_error`) and
 * the other lines go on; the LLM client's cache makes a rerun free.
 */
import pLimit from 'p-limit';
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmClient } from '../../core/llm.ts';
import type { AdaptType } from '../../core/types.ts';
import { errorMessage } from '../../core/errors.ts';
import { bleu1, locomoAnswerScore, mem0TokenF1 } from '../../eval/qa/answer-metrics.ts';
import { isJudged } from '../../eval/qa/exclusions.ts';
import { loadBenchmark } from '../../run/benchmark-registry.ts';
import type { PredictionLine } from './predictions.ts';

export interface GoldAnswer {
  protocol: 'locomo' | 'longmemeval';
  question: string;
  /** LongMemEval `question_type` or LoCoMo's category number as a string. */
  nativeType: string;
  adaptType: AdaptType;
  answer: string;
}

/** One output line (snake_case: it is a file format other tools read). */
export interface ScoredLine {
  line: number;
  question_id: string;
  adapt_type: AdaptType;
  /** LoCoMo category number (LoCoMo only). */
  category?: number;
  /** LongMemEval `question_type` (LongMemEval only). */
  question_type?: string;
  /** LoCoMo only: LoCoMo's F1 with its category rules. */
  locomo_f1?: number;
  mem0_f1: number;
  bleu1: number;
  /** With --judge: true / false, or null where the protocol does not judge (LoCoMo category 5). */
  judge_correct?: boolean | null;
  judge_raw?: string;
  judge_error?: string;
}

export interface ScoreLinesOptions {
  judge?: LlmClient;
  judgeAdversarial?: boolean;
  concurrency?: number;
  calls?: CallRecord[];
}

async function judgeOne(
  p: PredictionLine,
  gold: GoldAnswer,
  judge: LlmClient,
  opts: ScoreLinesOptions,
): Promise<Pick<ScoredLine, 'judge_correct' | 'judge_raw' | 'judge_error'>> {
  const calls = opts.calls ?? [];
  if (!isJudged(gold.protocol, gold.nativeType, opts.judgeAdversarial ?? false)) return { judge_correct: null };
  try {
    // The run's own scoring: the benchmark's QA protocol with its official judge prompt.
    const { qa } = await loadBenchmark(gold.protocol);
    const scored = await qa.score(
      {
        protocol: gold.protocol,
        questionId: p.questionId,
        nativeType: gold.nativeType,
        question: gold.question,
        gold: gold.answer,
        hypothesis: p.prediction,
      },
      judge,
      { calls, judgeAdversarial: opts.judgeAdversarial ?? false },
    );
    const r = scored.judge;
    if (!r) return { judge_correct: null };
    return { judge_correct: r.correct[0] ?? false, judge_raw: r.raw[0] ?? '' };
  } catch (err) {
    return { judge_correct: null, judge_error: errorMessage(err) };
  }
}

export function scoreMetrics(p: PredictionLine, gold: GoldAnswer): ScoredLine {
  const base = { line: p.line, question_id: p.questionId, adapt_type: gold.adaptType };
  const mem0 = { mem0_f1: mem0TokenF1(p.prediction, gold.answer), bleu1: bleu1(p.prediction, gold.answer) };
  if (gold.protocol === 'locomo') {
    const category = Number(gold.nativeType);
    return { ...base, category, locomo_f1: locomoAnswerScore(p.prediction, gold.answer, category), ...mem0 };
  }
  return { ...base, question_type: gold.nativeType, ...mem0 };
}

/** Scores every line (in input order); judges run `concurrency` at a time. */
export async function scoreLines(
  lines: readonly PredictionLine[],
  gold: ReadonlyMap<string, GoldAnswer>,
  opts: ScoreLinesOptions = {},
): Promise<ScoredLine[]> {
  const limit = pLimit(opts.concurrency ?? 4);
  return Promise.all(
    lines.map((p) =>
      limit(async () => {
        const g = gold.get(p.questionId);
        if (!g) throw new Error(`internal: no gold for ${p.questionId}`);
        const row = scoreMetrics(p, g);
        return opts.judge ? { ...row, ...(await judgeOne(p, g, opts.judge, opts)) } : row;
      }),
    ),
  );
}
