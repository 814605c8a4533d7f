/**
 * LoCoMo's QA protocol: the harness's reader; LoCoMo's token F1 with its category rules and Mem0's BLEU-1 (no LLM
 * needed), plus the Mem0 LLM judge when a judge model is configured. Category 5 (adversarial) is not judged unless
 * `judgeAdversarial`, and is kept out of the headline (the one rule: src/eval/qa/exclusions.ts). Category 5 has no
 * gold answer in most items, so its F1 is LoCoMo's phrase rule and BLEU-1 is 0 when the gold answer is empty.
 */
import type { BenchmarkQa } from '../../src/core/benchmark.ts';
import { InputError } from '../../src/core/errors.ts';
import { bleu1, locomoAnswerScore } from '../../src/eval/qa/answer-metrics.ts';
import { isAdversarial, isJudged } from '../../src/eval/qa/exclusions.ts';
import { judgeAnswer, officialJudgePrompt } from '../../src/eval/qa/panel.ts';

export const locomoQa: BenchmarkQa = {
  protocol: 'locomo',
  panel: 'locomo',
  judgePrompts: ['locomo — mem0ai/mem0@2352a44193bd0e36cd544fc5664cbee14e020bc2 evaluation/metrics/llm_judge.py'],
  excluded: (nativeType) => (isAdversarial('locomo', nativeType) ? 'adversarial (reported separately)' : null),
  async score(input, judge, options) {
    const category = Number(input.nativeType);
    if (!Number.isInteger(category) || category < 1 || category > 5) {
      throw new InputError(`LoCoMo category must be 1–5, got "${input.nativeType}"`, `question ${input.questionId}`);
    }
    const scores = {
      f1: locomoAnswerScore(input.hypothesis, input.gold, category),
      bleu1: bleu1(input.hypothesis, input.gold),
    };
    if (!judge || !isJudged('locomo', String(category), options.judgeAdversarial ?? false)) return scores;
    const judged = await judgeAnswer(
      { ...input, protocol: 'locomo' },
      options.prompt ?? officialJudgePrompt('locomo'),
      judge,
      { calls: options.calls, repeats: options.repeats ?? 1, ...(options.stage ? { stage: options.stage } : {}) },
    );
    return { ...scores, judge: judged };
  },
};
