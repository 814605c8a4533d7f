/**
 * LoCoMo-Plus (xjtuleeyf/Locomo-Plus): "Cognitive" items — a cue dialogue stitched into a LoCoMo conversation and a
 * later trigger that needs it — read by src/data/locomo-plus.ts (README.md, docs/datasets.md §4.3). No type of the
 * five fits: every item is reported as `cognitive`.
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { namedDatasetsOf } from '../../src/data/source.ts';
import { LOCOMO_PLUS_TYPE } from '../../src/data/type-map.ts';
import { locomoPlusQa } from './qa.ts';

/** The release's four `relation_type`s (docs/datasets.md §4.3: causal 101, state 100, goal 100, value 100). */
const RELATION_TYPES: ReadonlySet<string> = new Set(['causal', 'state', 'goal', 'value']);

export const locomoPlus = defineBenchmark({
  name: 'locomo-plus',
  description: 'LoCoMo-Plus: cue–trigger items stitched into the LoCoMo conversations, judged against the cue',
  datasets: namedDatasetsOf('locomo-plus'),
  mapType: (nativeType) => (RELATION_TYPES.has(nativeType) ? LOCOMO_PLUS_TYPE : undefined),
  qa: locomoPlusQa,
  fixture: {
    path: 'fixture/locomo_plus.json',
    kind: 'file',
    companion: '../locomo/fixture/locomo_fixture.json',
    judgeReplies: { right: '{"label": "correct"}', wrong: '{"label": "wrong"}' },
    malformed: { file: '', text: '[{"relation_type": "causal", "cue_dialogue": 3}]', item: 'element 0' },
  },
});
