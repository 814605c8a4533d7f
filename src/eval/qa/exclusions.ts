/**
 * Which questions a QA protocol keeps out of its judge and its headline, written once: LoCoMo's category 5 is
 * adversarial (the question asks about something never said; most items have no gold answer). Mem0's evaluation
^ * (mem0ai/mem0@2352a44193bd0e36cd544fc5664cbee14e020bc2 evaluation/) skips it in the judge, and its results are reported apart from categories 1–4
 * (docs/design.md §6); `judgeAdversarial` judges it anyway. Callers: the judge panel, answer scoring, the runner's
 * headline flag and `adaptmr score-answers`.
 */

/** LoCoMo's adversarial category, as the native type a LoCoMo question carries. */
export const LOCOMO_ADVERSARIAL = '5';

/** Whether a question of a protocol is adversarial (LoCoMo category 5). */
export function isAdversarial(protocol: string, nativeType: string): boolean {
  return protocol === 'locomo' && nativeType === LOCOMO_ADVERSARIAL;
}

/** Whether the protocol judges this question at all (Mem0 skips LoCoMo category 5 unless `judgeAdversarial`). */
export function isJudged(protocol: string, nativeType: string, judgeAdversarial: boolean): boolean {
  return !isAdversarial(protocol, nativeType) || judgeAdversarial;
}
