/**
 * Judge panels on the benchmarks that define their own judge — BEAM (the rubric judge, one call per rubric item) and
 * MemDaily's free-form answers (LongMemEval's default prompt) — for the judging pass (judge-pass.ts): every judge of
 * the panel asks the benchmark's own prompt with its own model, the first being the one the run scored with, so
 * their verdicts (and judge_agreement) compare models, not prompts. What the pass needs is in the results file: the
 * question, its gold answer and, for BEAM, the rubric (the gold answer holds it one item per line, src/data/beam.ts).
 * A MemDaily question answered by letter is scored exactly, without a judge: only answers the run's own judge judged
 * get the panel. LoCoMo-Plus is not covered: its cue (what its judge reads) is not stored in the results file.
 */
import type { CallRecord } from '../core/interfaces.ts';
import type { LlmClient } from '../core/llm.ts';
import { BEAM_ABILITIES, MEMDAILY_TYPES } from '../data/type-map.ts';
import type { JudgeResult } from '../core/judge.ts';
import { loadBenchmark } from './benchmark-registry.ts';

export type PanelBenchmark = 'beam' | 'memdaily';

/** The benchmark whose native labels a dataset's questions all carry, or null. */
export function benchmarkOfNativeTypes(natives: Iterable<string>): PanelBenchmark | null {
  const set = [...new Set(natives)];
  if (set.length === 0) return null;
  if (set.every((t) => BEAM_ABILITIES[t] !== undefined)) return 'beam';
  if (set.every((t) => MEMDAILY_TYPES[t] !== undefined)) return 'memdaily';
  return null;
}

/** The prompt label of a benchmark judge's verdicts (as the run's first judge records it, src/run/question.ts). */
export const benchmarkPrompt = (b: PanelBenchmark): string => `${b} (benchmark judge)`;

export interface BenchmarkQuestion {
  questionId: string;
  nativeType: string;
  text: string;
  answer: string;
}

/** One answer judged by one judge model with the benchmark's own judge. */
export async function judgeWithBenchmark(
  b: PanelBenchmark,
  q: BenchmarkQuestion,
  hypothesis: string,
  llm: LlmClient,
  options: { calls: CallRecord[]; repeats: number; stage: string },
): Promise<JudgeResult> {
  const { qa } = await loadBenchmark(b);
  const scores = await qa.score(
    {
      protocol: b,
      questionId: q.questionId,
      nativeType: q.nativeType,
      question: q.text,
      gold: q.answer,
      hypothesis,
      ...(b === 'beam' ? { rubric: q.answer.split('\n') } : {}),
    },
    llm,
    options,
  );
  if (!scores.judge) throw new Error(`the ${b} judge gave no verdict for ${q.questionId}`);
  return scores.judge;
}
