/**
 * The run's failure accounting ("honest run summaries"): which stage each failed (question, method) result
 * failed in — the method's own retrieval, the classifier, memorising (building the haystack's index, a memory
 * server's ingestion or a method's `memorise`), the reader or the judge — and the exit rule: `adaptmr run` exits non-zero when the share of
 * questions left failed exceeds `run.maxFailureShare` (or `--max-failure-share`).
 */
import type { CallRecord } from '../../core/calls.ts';
import { stageOf } from '../../core/errors.ts';

export const FAILED_STAGES = ['method', 'classifier', 'memorising', 'reader', 'judge'] as const;
export type FailedStage = (typeof FAILED_STAGES)[number];

export { DEFAULT_MAX_FAILURE_SHARE } from '../../core/config.ts';

export function emptyFailureCounts(): Record<FailedStage, number> {
  return { method: 0, classifier: 0, memorising: 0, reader: 0, judge: 0 };
}

/** A `CallRecord.stage` name (or an error's tagged stage) as one of the summary's stages. */
export function stageCategory(stage: string | undefined): FailedStage {
  if (stage === undefined) return 'method';
  if (stage === 'classify' || stage.startsWith('classify:')) return 'classifier';
  if (stage.startsWith('index:') || stage === 'ingest' || stage === 'memorise') return 'memorising';
  if (stage === 'reader' || stage.startsWith('reader:')) return 'reader';
  if (stage === 'judge' || stage.startsWith('judge:')) return 'judge';
  return 'method';
}

/**
 * The stage a method's run failed in: the stage its error was tagged with (tagStage), else that of the last call
 * that failed before it, else the method itself.
 */
export function methodFailureStage(err: unknown, calls: readonly CallRecord[]): FailedStage {
  const tagged = stageOf(err);
  if (tagged !== undefined) return stageCategory(tagged);
  const lastFailed = [...calls].reverse().find((c) => c.error !== undefined);
  return stageCategory(lastFailed?.stage);
}

/** One line: "2 of 10 questions failed (reader 2)" or "no question failed". */
export function describeFailures(
  failedQuestions: number,
  questions: number,
  counts: Record<FailedStage, number>,
): string {
  const stages = FAILED_STAGES.map((s) => `${s} ${counts[s]}`).join(', ');
  return `${failedQuestions} of ${questions} questions failed; failed results this invocation by stage: ${stages}`;
}

/** The one-line reason to exit non-zero, or undefined when the failed share is within the limit. */
export function failureVerdict(failedQuestions: number, questions: number, maxShare: number): string | undefined {
  if (questions === 0 || failedQuestions / questions <= maxShare) return undefined;
  const pct = ((100 * failedQuestions) / questions).toFixed(1);
  return (
    `${failedQuestions} of ${questions} questions (${pct}%) have error rows, more than the allowed share ${maxShare} ` +
    '(run.maxFailureShare / --max-failure-share); fix the cause and rerun: the resume retries them'
  );
}
