/**
 * LoCoMo-Plus's QA protocol (cognitive.ts): its own reader prompt (the conversation's trigger speaker answering), and
 * its "Cognitive" judge against the cue — there is no reference answer. It keeps that judge whatever the panel asks.
 */
import type { BenchmarkQa } from '../../src/core/benchmark.ts';
import { judgeLocomoPlus, readLocomoPlus } from './cognitive.ts';
import { locomoPlusProbes } from './probes.ts';

export const locomoPlusQa: BenchmarkQa = {
  protocol: 'locomo-plus',
  judgePrompts: ['cognitive — xjtuleeyf/Locomo-Plus@059f4e3 evaluation_framework/task_eval/prompt.py'],
  excluded: () => null,
  // Its judge reads the cue, stored with the question (`questions.judge_evidence`), not the (empty) gold answer.
  rejudge: () => ({}),
  judgeNeedsEvidence: true,
  probes: locomoPlusProbes,
  async read({ instance, retrieval, methodAnswer, llm, calls }) {
    if (methodAnswer !== undefined) return undefined;
    const answer = await readLocomoPlus(instance.query, retrieval, instance.haystack, llm.forRole('reader'), calls);
    return { answer };
  },
  async score(input, judge, options) {
    if (!judge) return {};
    const judgeOptions = {
      calls: options.calls,
      repeats: options.repeats ?? 1,
      ...(options.stage ? { stage: options.stage } : {}),
    };
    return {
      judge: await judgeLocomoPlus(
        { evidence: input.evidenceText ?? '', prediction: input.hypothesis },
        judge,
        judgeOptions,
      ),
    };
  },
};
