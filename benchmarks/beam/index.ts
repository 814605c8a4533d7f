/**
 * BEAM (Tavakoli et al. 2025; mohammadtavakoli78/BEAM): long chats in tiers (100K, 500K tokens), probing questions
 * of ten abilities judged against rubrics, read by load.ts (README.md, docs/datasets.md §4.1). Three
 * abilities fit none of the five types and are reported apart (`reportAs: outside`).
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { BEAM_ABILITIES, BEAM_ABILITY_ORDER } from './abilities.ts';
import {
  beamCatalogEntries,
  beamChatDirs,
  beamChatFiles,
  normaliseBeam,
  readBeamChat,
  readBeamChatSync,
  type BeamRecord,
} from './load.ts';
import { BeamDatasetOptionsSchema, withBeamOptions } from './options.ts';
import { TIER_100K_PIN, TIER_500K_PIN } from './pins.ts';
import { beamQa } from './qa.ts';

export const beam = defineBenchmark({
  name: 'beam',
  description: 'BEAM: long chats (100K and 500K tiers), probing questions of ten abilities with rubrics',
  display: {
    label: 'BEAM',
    fittedColours: { 'beam-100k': '#BE0032' },
    perNativeType: true,
  },
  // The upstream folder `100K` is the paper's "128K" tier; one folder per chat (docs/datasets.md §4.1).
  datasets: [
    { name: 'beam-100k', layouts: [{ rel: 'beam/chats/100K', kind: 'folder' }], pin: TIER_100K_PIN, updateGold: true },
    { name: 'beam-500k', layouts: [{ rel: 'beam/chats/500K', kind: 'folder' }], pin: TIER_500K_PIN, updateGold: true },
  ],
  pathFormat: true,
  reader: {
    units: beamChatDirs,
    readUnit: (unit, { parse, light }) => readBeamChat(unit, { parse, withChat: !light }),
    readUnitSync: readBeamChatSync,
    unitFiles: beamChatFiles,
    catalogue: ({ raw, file }) => beamCatalogEntries(raw as BeamRecord, file),
    normalise: ({ raw, file }, ctx) => {
      const record = raw as BeamRecord;
      // A chat none of whose questions is kept is not built (nor its tokens counted for `truncation: upstream`).
      if (ctx.keep && !beamCatalogEntries(record, file).some(ctx.keep)) return [];
      const read = withBeamOptions(record, file, ctx.options, ctx.issues);
      return normaliseBeam(read, file, ctx.dataset, ctx.issues, ctx.keep);
    },
    unitNames: ['batches', 'messages'],
  },
  datasetOptions: BeamDatasetOptionsSchema,
  nativeTypes: BEAM_ABILITY_ORDER,
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
