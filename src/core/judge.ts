/**
 * The shapes every LLM judge shares, whatever its benchmark: the options of one judging (repeats, call records, call
 * stage) and its result (per judge run: correct or not, the raw reply, a graded score where the protocol has one).
 * Types only; asking the judge is src/eval/qa/judge.ts.
 */
import type { CallRecord } from './interfaces.ts';

export interface JudgeOptions {
  /** Judge runs per question (default 1). */
  repeats?: number;
  calls: CallRecord[];
  /** Call-record stage name (default `judge`). */
  stage?: string;
}

export interface JudgeResult {
  correct: boolean[];
  raw: string[];
  /**
   * Per judge run, a graded score in [0, 1] where the protocol defines one (a rubric's mean item score, a label's
   * points); accuracy is then its mean rather than the share of `correct`.
   */
  scores?: number[];
}
