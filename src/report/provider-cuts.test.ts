// The fairness contract in the report: a provider that returned 30 memories for k = 10 is named as cut to k, with how
// many retrievals and the most it returned; one that returned fewer is named too; methods without counts are not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openResultStore } from '../store/open-store.ts';
import { fakeBatch } from '../store/testing/fake-batch.ts';
import type { RunRecord } from '../store/types.ts';
import { loadProviderCuts, providerCutsNote } from './provider-cuts.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-cuts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RUN: RunRecord = {
  runId: 'r1',
  name: 'exp',
  configJson: '{}',
  configHash: 'abc',
  gitCommit: 'deadbeef',
  gitDirty: false,
  packageVersions: {},
  datasetHashes: {},
  seed: 7,
  startedAt: '2026-01-01T00:00:00Z',
  status: 'running',
};

/** Provider counts per question index: `wide` always returns 30, `short` 10 except two questions with 4 and 6. */
function returned(method: string, i: number): number | undefined {
  if (method === 'wide') return 30;
  if (method === 'short') return i === 1 ? 4 : i === 2 ? 6 : 10;
  return undefined;
}

describe('provider cuts (fairness contract)', () => {
  it('names the methods cut to k and those that returned fewer, from the retrieval notes', async () => {
    const store = await openResultStore(join(dir, 'r.duckdb'));
    try {
      await store.upsertRun(RUN);
      for (let i = 0; i < 5; i++) {
        const batch = fakeBatch('r1', i, ['wide', 'short', 'bm25']);
        for (const r of batch.retrievals) {
          r.k = 10;
          const n = returned(r.method, i);
          if (n !== undefined) r.notes = { system: 'mcp', returned: n, cutToK: n > 10, fewerThanK: n < 10 };
        }
        await store.writeQuestion(batch);
      }
      const cuts = await loadProviderCuts(store);
      expect(cuts.map((c) => c.method)).toEqual(['short', 'wide']);
      const note = providerCutsNote(cuts);
      expect(note).toContain('wide: 5 of 5 retrievals cut to k = 10 (the provider returned up to 30)');
      expect(note).toContain('short: none of 5 retrievals over k = 10; 2 returned fewer than k = 10 (as few as 4)');
      expect(note).not.toContain('bm25');
    } finally {
      await store.close();
    }
  });

  it('says nothing when no method carries provider counts', () => {
    expect(providerCutsNote([])).toBe('');
  });
});
