/**
 * BEAM's QA protocol: the harness's reader, then BEAM's rubric judge — one call per rubric item, and the event-ordering
 * score (judge.ts). BEAM keeps its own judge whatever the panel asks. Preference following, instruction following
 * and summarization are outside the five types: reported by ability, kept out of the headline (src/run/score.ts
 * reads `Gold.reportAs`).
 */
import type { BenchmarkQa } from '../../src/core/benchmark.ts';
import { InputError } from '../../src/core/errors.ts';
import { judgeBeam } from './judge.ts';
import { beamProbes } from './probes.ts';

export const beamQa: BenchmarkQa = {
  protocol: 'beam',
  // The stored gold answer holds the rubric one item per line (load.ts).
  rejudge: (storedAnswer) => ({ rubric: storedAnswer.split('\n') }),
  judgePrompts: [
    'unified_llm_judge_base_prompt — mohammadtavakoli78/BEAM@b2a3ee8 src/evaluation/run_evaluation.py',
    'llm_equivalence — mohammadtavakoli78/BEAM@b2a3ee8 src/evaluation/compute_metrics.py',
  ],
  excluded: () => null,
  probes: beamProbes,
  async score(input, judge, options) {
    if (!judge) return {};
    if (!input.rubric) throw new InputError('a BEAM question needs its rubric', `question ${input.questionId}`);
    return judgeBeam(
      { ability: input.nativeType, question: input.question, rubric: input.rubric, response: input.hypothesis },
      judge,
      { calls: options.calls, repeats: options.repeats ?? 1, ...(options.stage ? { stage: options.stage } : {}) },
    );
  },
};
