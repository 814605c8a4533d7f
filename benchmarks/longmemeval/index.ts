/**
 * LongMemEval (Wu et al. 2025; xiaowu0162/LongMemEval): the oracle, S and M splits, read by load.ts;
 * native types are `question_type`, abstention is the `_abs` suffix of `question_id` (README.md, docs/datasets.md §2).
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { longMemEvalCatalogEntry, normaliseLongMemEval } from './load.ts';
import { LONGMEMEVAL_TYPES, longMemEvalType } from './types.ts';
import { longMemEvalQa } from './qa.ts';

export const longMemEval = defineBenchmark({
  name: 'longmemeval',
  description: 'LongMemEval: 500 questions per split over a user–assistant chat history (oracle, S, M)',
  display: { label: 'LongMemEval', fittedColours: { 'longmemeval-s': '#2B3D26' } },
  datasets: (['oracle', 's', 'm'] as const).map((split) => {
    const stem = split === 'oracle' ? 'oracle' : `${split}_cleaned`;
    return {
      name: `longmemeval-${split}`,
      answerErrata: true,
      // S and M hold oracle's 500 questions over larger haystacks.
      ...(split === 'oracle' ? {} : { sameQuestionsAs: 'longmemeval-oracle' }),
      layouts: [
        { rel: `longmemeval/longmemeval_${stem}.json`, kind: 'file' },
        { rel: `longmemeval/${stem}`, kind: 'folder' },
      ],
    };
  }),
  pathFormat: true,
  reader: {
    // Each item is one question, its id and type first: the catalogue reads the heads only.
    headKeys: ['question_id', 'question_type'],
    catalogueSkipKeys: ['haystack_sessions', 'haystack_dates', 'haystack_session_ids'],
    catalogue: ({ raw, file }) => [longMemEvalCatalogEntry(raw, file)],
    normalise: ({ raw, file }, ctx) =>
      ctx.keep && !ctx.keep(longMemEvalCatalogEntry(raw, file))
        ? []
        : [normaliseLongMemEval(raw, file, ctx.dataset, ctx.issues)],
  },
  nativeTypes: Object.keys(LONGMEMEVAL_TYPES),
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
