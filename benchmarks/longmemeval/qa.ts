/**
 * LongMemEval's QA protocol: the harness's reader, then the official LLM judge — the only answer metric the benchmark
 * defines (src/eval/qa/judge-longmemeval.ts: the type-specific prompt of xiaowu0162/LongMemEval `evaluate_qa.py`,
 * the abstention prompt for `_abs` questions). Any panel prompt may judge its answers (src/eval/qa/panel.ts).
 */
import type { BenchmarkQa } from '../../src/core/benchmark.ts';
import { judgeAnswer, officialJudgePrompt } from '../../src/eval/qa/panel.ts';

export const longMemEvalQa: BenchmarkQa = {
  protocol: 'longmemeval',
  panel: 'longmemeval',
  judgePrompts: [
    'longmemeval — xiaowu0162/LongMemEval@f466efe0ea8859251760733cd4c7ad98302b9ddf src/evaluation/evaluate_qa.py get_anscheck_prompt',
  ],
  excluded: () => null,
  async score(input, judge, options) {
    if (!judge) return {};
    return {
      judge: await judgeAnswer(
        { ...input, protocol: 'longmemeval' },
        options.prompt ?? officialJudgePrompt('longmemeval'),
        judge,
        { calls: options.calls, repeats: options.repeats ?? 1, ...(options.stage ? { stage: options.stage } : {}) },
      ),
    };
  },
};
