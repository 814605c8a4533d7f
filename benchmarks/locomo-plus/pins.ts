/**
 * The LoCoMo-Plus file `adaptmr data pull` fetches (xjtuleeyf/Locomo-Plus@059f4e3): the items file, checked against
 * its sha256 and size (its `data/locomo10.json` is the same blob as LoCoMo's own, pulled by `adaptmr data pull locomo`).
 */
import type { PinnedFiles } from '../../src/core/benchmark.ts';

export const LOCOMO_PLUS_PIN = {
  repo: 'xjtuleeyf/Locomo-Plus',
  commit: '059f4e3d38f7f1f96765e8e2cb7de3097551bffb',
  upstreamRoot: 'data',
  localRoot: 'locomo-plus',
  files: [['locomo_plus.json', 'af2fc6e5e0e88735e28d8dd1ef474b718861a73beb21779809e3b9e1a4fe3d23', 305737]],
} as const satisfies PinnedFiles;
