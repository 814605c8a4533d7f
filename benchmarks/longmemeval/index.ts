/**
 * LongMemEval (Wu et al. 2025; xiaowu0162/LongMemEval): the oracle, S and M splits, read by src/data/longmemeval.ts;
 * native types are `question_type`, abstention is the `_abs` suffix of `question_id` (README.md, docs/datasets.md §2).
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { namedDatasetsOf } from '../../src/data/source.ts';
import { longMemEvalType } from '../../src/data/type-map.ts';
import { longMemEvalQa } from './qa.ts';

export const longMemEval = defineBenchmark({
  name: 'longmemeval',
  description: 'LongMemEval: 500 questions per split over a user–assistant chat history (oracle, S, M)',
  datasets: namedDatasetsOf('longmemeval'),
  mapType: (nativeType, questionId) => {
    const mapped = longMemEvalType(questionId, nativeType);
    return mapped && { type: mapped.type };
  },
  qa: longMemEvalQa,
  fixture: {
    path: 'fixture/longmemeval_fixture.json',
    kind: 'file',
    judgeReplies: { right: 'yes', wrong: 'no' },
    malformed: {
      file: '',
      text: '[{"question_id": "fx-bad-1", "question_type": "single-session-user", "question": 3}]',
      item: 'fx-bad-1',
    },
  },
});
