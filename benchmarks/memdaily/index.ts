/**
 * MemDaily (MemSim, Zhang et al. 2024; nuster1128/MemSim): Chinese daily-life messages and multiple-choice questions
 * of six types, read by src/data/memdaily.ts (README.md, docs/datasets.md §4.2). A question whose answer is an
 * absolute date is temporal whatever its file (src/data/type-map.ts `memDailyType`).
 */
import { defineBenchmark } from '../../src/core/benchmark.ts';
import { namedDatasetsOf } from '../../src/data/source.ts';
import { MEMDAILY_TYPES } from '../../src/data/type-map.ts';
import { memDailyQa } from './qa.ts';

export const memDaily = defineBenchmark({
  name: 'memdaily',
  description: 'MemDaily (Chinese): messages of one user and multiple-choice questions of six types',
  datasets: namedDatasetsOf('memdaily'),
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
