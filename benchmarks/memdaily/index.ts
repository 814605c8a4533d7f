/**
 * MemDaily (MemSim, Zhang et al. 2024; nuster1128/MemSim): Chinese daily-life messages and multiple-choice questions
 * of six types, read by load.ts (README.md, docs/datasets.md §4.2). A question whose answer is an absolute date is
 * temporal whatever its file (types.ts `memDailyType`).
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { memDailyCatalogEntries, memDailyFileKind, normaliseMemDaily } from './load.ts';
import { MEMDAILY_PIN } from './pins.ts';
import { memDailyQa } from './qa.ts';
import { MEMDAILY_TYPES } from './types.ts';

export const memDaily = defineBenchmark({
  name: 'memdaily',
  description: 'MemDaily (Chinese): messages of one user and multiple-choice questions of six types',
  display: { label: 'MemDaily', fittedColours: { memdaily: '#E68FAC' } },
  datasets: [{ name: 'memdaily', layouts: [{ rel: 'memdaily/messages_and_QAs', kind: 'folder' }], pin: MEMDAILY_PIN }],
  pathFormat: true,
  reader: {
    // A file's name is its question type: a file not named like one is refused.
    checkFile: (file) => void memDailyFileKind(file),
    catalogueSkipKeys: ['message_list'],
    catalogue: ({ raw, file, index }) => memDailyCatalogEntries(raw, file, index).map((e) => ({ ...e, file })),
    normalise: ({ raw, file, index }, ctx) => normaliseMemDaily(raw, file, index, ctx.dataset, ctx.issues, ctx.keep),
  },
  nativeTypes: Object.keys(MEMDAILY_TYPES),
  mapType: (nativeType) => {
    const type = MEMDAILY_TYPES[nativeType];
    return type && { type };
  },
  qa: memDailyQa,
  fixture: {
    path: 'fixture/messages_and_QAs',
    kind: 'folder',
    judgeReplies: { right: 'yes', wrong: 'no' },
    malformed: { file: '01_simple_roles.json', text: '[{"tid": 7, "message_list": "none"}]', item: 'element 0' },
  },
});
