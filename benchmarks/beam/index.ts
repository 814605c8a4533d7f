/**
 * BEAM (Tavakoli et al. 2025; mohammadtavakoli78/BEAM): long chats in tiers (100K, 500K tokens), probing questions
 * of ten abilities judged against rubrics, read by src/data/beam.ts (README.md, docs/datasets.md §4.1). Three
 * abilities fit none of the five types and are reported apart (`reportAs: outside`).
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { namedDatasetsOf } from '../../src/data/source.ts';
import { BEAM_ABILITIES } from '../../src/data/type-map.ts';
import { beamQa } from './qa.ts';

export const beam = defineBenchmark({
  name: 'beam',
  description: 'BEAM: long chats (100K and 500K tiers), probing questions of ten abilities with rubrics',
  datasets: namedDatasetsOf('beam'),
  mapType: (nativeType) => BEAM_ABILITIES[nativeType],
  qa: beamQa,
  fixture: {
    path: 'fixture/chats',
    kind: 'folder',
    judgeReplies: { right: '{"score": 1.0, "reason": "stated"}', wrong: '{"score": 0.0, "reason": "missing"}' },
    malformed: {
      file: '1/probing_questions/probing_questions.json',
      text: '{"abstention": [{"question": 3, "rubric": []}]}',
      item: 'abstention',
    },
  },
});
