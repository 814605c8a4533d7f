// Dataset file hashes (run provenance) on the real data: LoCoMo's pinned sha256, and LongMemEval in whichever layout
// the data directory holds — each file of the folder copy against its MANIFEST.json, the release file against the
// lock entry `adaptmr data pull` wrote.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashDatasetFiles, readLock } from './index.ts';
import { dataPath, longMemEvalCount, testDataset } from '../../test/data-path.ts';

describe('hashDatasetFiles', () => {
  it('hashes a file (LoCoMo: the pinned sha256) and a folder per file', async () => {
    const [loc] = await hashDatasetFiles(testDataset('locomo'));
    expect(loc).toMatchObject({
      sha256: '79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4',
      bytes: 2805274,
    });
    const source = testDataset('longmemeval-oracle');
    const oracle = await hashDatasetFiles(source);
    if (source.kind === 'folder') {
      expect(oracle).toHaveLength(longMemEvalCount('longmemeval-oracle'));
      // MANIFEST.json records the sha256 of each unzipped file; oracle files are stored unzipped.
      const manifest = readFileSync(dataPath('longmemeval/MANIFEST.json'), 'utf8');
      for (const f of oracle.slice(0, 20)) expect(manifest).toContain(f.sha256);
    } else {
      expect(oracle).toHaveLength(1);
      const entry = Object.values((await readLock(source.root!)).datasets).find(
        (e) => e.dataset === 'longmemeval-oracle',
      );
      expect(entry, 'the release file was pulled, so the lock file has its entry').toBeDefined();
      expect(oracle[0]!.sha256).toBe(entry!.sha256);
    }
  });
});
