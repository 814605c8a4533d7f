/**
 * Judge panels on the benchmarks that define their own judge and can ask it again from the results file
 * (`BenchmarkQa.rejudge`: a rubric judge, a free-form judge, a cue judge — docs/qa-and-judges.md) for the judging pass (judge-pass.ts): every judge of the
 * panel asks the benchmark's own prompt with its own model, the first being the one the run scored with, so their
 * verdicts (and judge_agreement) compare models, not prompts. What the pass needs is in the results file: the
 * question, its gold answer (a rubric protocol stores its rubric there, one item per line) and, where the judge reads
 * more than the gold (`qa.judgeNeedsEvidence`: LoCoMo-Plus's cue), `questions.judge_evidence` (schema version 6).
 * A question scored without a judge (a multiple-choice letter) has no verdict and gets no panel.
 */
import type { Benchmark } from '../../core/benchmark.ts';
import { installedBenchmarks } from '../../core/benchmarks-installed.ts';
import type { CallRecord } from '../../core/interfaces.ts';
import type { LlmClient } from '../../core/llm.ts';
import type { JudgeResult } from '../../core/judge.ts';

/** The benchmark with its own panel judge (`qa.rejudge`) whose native labels a dataset's questions all carry, or null. */
export function benchmarkOfNativeTypes(natives: Iterable<string>): Benchmark | null {
  const set = [...new Set(natives)];
  if (set.length === 0) return null;
  return (
    installedBenchmarks().find((b) => b.qa.rejudge && b.nativeTypes && set.every((t) => b.nativeTypes!.includes(t))) ??
    null
  );
}

/** The prompt label of a benchmark judge's verdicts (as the run's first judge records it, src/run/question.ts). */
export const benchmarkPrompt = (b: Benchmark): string => `${b.qa.protocol} (benchmark judge)`;

export interface BenchmarkQuestion {
  questionId: string;
  nativeType: string;
  text: string;
  answer: string;
  /** `questions.judge_evidence`; null in files written before schema version 6 or where there is none. */
  judgeEvidence: string | null;
}

/** Why a stored dataset cannot be judged again by its benchmark's judge (the judge's evidence is missing), or null. */
export function unjudgeableWhy(b: Benchmark, questions: readonly BenchmarkQuestion[]): string | null {
  if (!b.qa.judgeNeedsEvidence || questions.every((q) => q.judgeEvidence !== null)) return null;
  return `its judge reads evidence this results file does not store (written before schema version 6); rerun the experiment to judge it again`;
}

/** One answer judged by one judge model with the benchmark's own judge. */
export async function judgeWithBenchmark(
  b: Benchmark,
  q: BenchmarkQuestion,
  hypothesis: string,
  llm: LlmClient,
  options: { calls: CallRecord[]; repeats: number; stage: string },
): Promise<JudgeResult> {
  const scores = await b.qa.score(
    {
      protocol: b.qa.protocol,
      questionId: q.questionId,
      nativeType: q.nativeType,
      question: q.text,
      gold: q.answer,
      hypothesis,
      ...b.qa.rejudge?.(q.answer),
      ...(q.judgeEvidence !== null ? { evidenceText: q.judgeEvidence } : {}),
    },
    llm,
    options,
  );
  if (!scores.judge) throw new Error(`the ${b.name} judge gave no verdict for ${q.questionId}`);
  return scores.judge;
}
