/**
 * Judge panels on the benchmarks that define their own judge and can ask it again from the results file
 * (`BenchmarkQa.rejudge`, e.g. a rubric judge with one call per rubric item) — for the judging pass (judge-pass.ts):
 * every judge of the panel asks the benchmark's own prompt with its own model, the first being the one the run
 * scored with, so their verdicts (and judge_agreement) compare models, not prompts. What the pass needs is in the
 * results file: the question and its gold answer (which `rejudge` turns into what the judge reads). A question
 * answered by letter is scored exactly, without a judge: only answers the run's own judge judged get the panel.
 */
import { installedBenchmarks } from '../../core/benchmarks-installed.ts';
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmClient } from '../../core/llm.ts';
import type { JudgeResult } from '../../core/judge.ts';
import { loadBenchmark } from '../benchmark-registry.ts';

/** The name of a benchmark whose own judge a panel asks (`BenchmarkQa.rejudge`). */
export type PanelBenchmark = string;

/** The benchmark with its own panel judge whose native labels a dataset's questions all carry, or null. */
export function benchmarkOfNativeTypes(natives: Iterable<string>): PanelBenchmark | null {
  const set = [...new Set(natives)];
  if (set.length === 0) return null;
  const found = installedBenchmarks().find(
    (b) => b.qa.rejudge && b.nativeTypes && set.every((t) => b.nativeTypes!.includes(t)),
  );
  return found?.name ?? null;
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
      ...qa.rejudge?.(q.answer),
    },
    llm,
    options,
  );
  if (!scores.judge) throw new Error(`the ${b} judge gave no verdict for ${q.questionId}`);
  return scores.judge;
}
