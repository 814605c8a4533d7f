/**
 * LoCoMo-Plus (xjtuleeyf/Locomo-Plus): "Cognitive" items — a cue dialogue stitched into a LoCoMo conversation and a
 * later trigger that needs it — read by load.ts (README.md, docs/datasets.md §4.3). No type of the
 * five fits: every item is reported as `cognitive`.
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { InputError } from '../../src/core/errors.ts';
import { locomoPlusCatalogEntry, normaliseLocomoPlus } from './load.ts';
import { LOCOMO_PLUS_TYPE } from './types.ts';
import { LOCOMO_PLUS_PIN } from './pins.ts';
import { locomoPlusQa } from './qa.ts';

/** The release's four `relation_type`s (docs/datasets.md §4.3: causal 101, state 100, goal 100, value 100). */
const RELATION_TYPES: ReadonlySet<string> = new Set(['causal', 'state', 'goal', 'value']);

export const locomoPlus = defineBenchmark({
  name: 'locomo-plus',
  description: 'LoCoMo-Plus: cue–trigger items stitched into the LoCoMo conversations, judged against the cue',
  display: { label: 'LoCoMo-Plus' },
  datasets: [
    {
      name: 'locomo-plus',
      layouts: [{ rel: 'locomo-plus/locomo_plus.json', kind: 'file' }],
      pin: LOCOMO_PLUS_PIN,
      // Stitched into LoCoMo's conversations (the same blob upstream ships).
      companion: { dataset: 'locomo', rel: 'locomo/locomo10.json' },
    },
  ],
  // Named only: its items are stitched into LoCoMo.
  pathFormat: false,
  reader: {
    catalogue: ({ raw, file, index }) => [locomoPlusCatalogEntry(raw, file, index)],
    normalise: ({ raw, file, index }, ctx) => {
      if (!ctx.companion) throw new InputError('LoCoMo-Plus needs the LoCoMo file it is stitched into', file);
      return normaliseLocomoPlus(raw, file, index, ctx.companion, ctx.dataset, ctx.issues, ctx.keep);
    },
  },
  nativeTypes: [...RELATION_TYPES],
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
