/**
 * MemDaily's QA protocol (MemSim, nuster1128/MemSim@db9d5d5): with `qa.reader.choices: letter` a question that has
 * choices is asked MemSim's own multiple-choice prompt and scored exactly against `ground_truth`, without a judge
 * (choice.ts); otherwise the harness's reader answers free-form and the LongMemEval default judge prompt judges it
 * (MemSim defines no free-form scoring; docs/datasets.md). It keeps that judge whatever the panel asks.
 */
import type { BenchmarkQa, ReadInput } from '../../src/core/benchmark.ts';
import { judgeRepeatedly } from '../../src/eval/qa/judge.ts';
import { formatPositional } from '../../src/eval/qa/prompts/format.ts';
import {
  LME_JUDGE_DEFAULT,
  LME_JUDGE_MAX_TOKENS,
  LME_JUDGE_TEMPERATURE,
} from '../../src/eval/qa/prompts/longmemeval-judge.ts';
import { readYesNoVerdict } from '../../src/eval/qa/verdict.ts';
import { countTokens } from '../../src/llm/tokens.ts';
import { readMemDailyChoice, scoreChoice } from './choice.ts';

/** The question with its choices when it is asked as multiple choice (`reader.choices: letter`), else undefined. */
function multipleChoice({ instance, config }: Pick<ReadInput, 'instance' | 'config'>) {
  const q = instance.query;
  if (config.reader.choices !== 'letter' || !q.choices || instance.gold.correctChoice === undefined) return undefined;
  return { query: { ...q, choices: q.choices }, correctChoice: instance.gold.correctChoice };
}

export const memDailyQa: BenchmarkQa = {
  protocol: 'memdaily',
  rejudge: () => ({}),
  judgePrompts: [
    'longmemeval default — xiaowu0162/LongMemEval@f466efe0ea8859251760733cd4c7ad98302b9ddf src/evaluation/evaluate_qa.py get_anscheck_prompt',
  ],
  excluded: () => null,
  async read(input) {
    const choice = multipleChoice(input);
    if (!choice) return undefined;
    const score = { correctChoice: choice.correctChoice };
    if (input.methodAnswer !== undefined) return { answer: input.methodAnswer, score };
    const read = await readMemDailyChoice(choice.query, input.retrieval, input.llm.forRole('reader'), input.calls);
    return { answer: read.answer, contextTokens: countTokens(read.prompt), score };
  },
  async score(input, judge, options) {
    if (input.correctChoice !== undefined)
      return { metrics: { accuracy: scoreChoice(input.hypothesis, input.correctChoice) } };
    if (!judge) return {};
    const request = {
      messages: [
        {
          role: 'user' as const,
          content: formatPositional(LME_JUDGE_DEFAULT, input.question, input.gold, input.hypothesis),
        },
      ],
      temperature: LME_JUDGE_TEMPERATURE,
      maxTokens: LME_JUDGE_MAX_TOKENS,
    };
    const judgeOptions = {
      calls: options.calls,
      repeats: options.repeats ?? 1,
      ...(options.stage ? { stage: options.stage } : {}),
    };
    return { judge: await judgeRepeatedly(judge, request, (r) => readYesNoVerdict(r.text.trim()), judgeOptions) };
  },
};
