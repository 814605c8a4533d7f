// Native types beside the AdaptMR types: a dataset whose types pool several native labels gets a per-native-type
// table at its headline (and one that pools none gets none), read from the stored labels, never from a dataset name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openResultStore } from '../store/index.ts';
import { fakeBatch } from '../store/testing/fake-batch.ts';
import { nativeSection } from './html/native-section.ts';
import { loadNativeScores, pooledDatasets } from './native-types.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-native-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('per native type', () => {
  it('pooled datasets get one cell per method × native type at the headline; a dataset with one label per type none', async () => {
    const store = await openResultStore(join(dir, 'r.duckdb'));
    try {
      for (let i = 0; i < 8; i++) {
        // "pooled": temporal holds two native labels (as BEAM's temporal reasoning and event ordering).
        const b = fakeBatch('r1', i, ['bm25', 'hybrid'], 'pooled');
        const native = i % 2 === 0 ? 'temporal_reasoning' : 'event_ordering';
        b.question = { ...b.question, adaptType: 'temporal', nativeType: native };
        await store.writeQuestion(b);
        await store.writeQuestion(fakeBatch('r1', i, ['bm25', 'hybrid'], 'plain'));
      }
      expect([...(await pooledDatasets(store))]).toEqual(['pooled']);
      const h = { metric: 'recall_any', level: 'session', k: 10 };
      const rows = await loadNativeScores(
        store,
        { pooled: h, plain: h },
        (r) => r.method,
        () => false,
        false,
      );
      expect(rows.map((r) => `${r.dataset} ${r.series} ${r.type} ${r.n}`).sort()).toEqual([
        'pooled bm25 temporal · event_ordering 4',
        'pooled bm25 temporal · temporal_reasoning 4',
        'pooled hybrid temporal · event_ordering 4',
        'pooled hybrid temporal · temporal_reasoning 4',
      ]);
      // fake scores at k 10: (i + 10) % 2 → 0 on even questions (temporal_reasoning), 1 on odd (event_ordering).
      expect(rows.find((r) => r.type.endsWith('event_ordering'))!.mean).toBe(1);
      expect(rows.find((r) => r.type.endsWith('temporal_reasoning'))!.mean).toBe(0);
      const html = nativeSection(rows, '');
      expect(html).toContain('<section id="native-types">');
      expect(html).toContain('<th>temporal · event_ordering</th>');
      expect(html).toMatch(/<td>bm25<\/td><td class="num">100\.0 \(4\)<\/td><td class="num">0\.0 \(4\)<\/td>/u);
      expect(nativeSection([], '')).toBe('');
    } finally {
      await store.close();
    }
  });
});
