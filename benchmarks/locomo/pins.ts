/**
 * The LoCoMo file `adaptmr data pull locomo` fetches: snap-research/locomo `data/locomo10.json` at one commit, checked
 * against its sha256 and size (docs/datasets.md §1). The raw URL's base is `--locomo-url` / ADAPTMR_LOCOMO_URL.
 */
import type { PinnedFile } from '../../src/core/benchmark.ts';

export const LOCOMO_PIN: PinnedFile = {
  kind: 'github-file',
  repo: 'snap-research/locomo',
  commit: '3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376',
  path: 'data/locomo10.json',
  localPath: 'locomo/locomo10.json',
  sha256: '79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4',
  bytes: 2_805_274,
  baseUrlEnv: 'ADAPTMR_LOCOMO_URL',
};
