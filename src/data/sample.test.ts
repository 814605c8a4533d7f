// Stratified sampling: per-type quotas, determinism for a seed, independence from input order; loadDataset applies it.
import { describe, expect, it } from 'vitest';
import type { AdaptType } from '../core/types.ts';
import { compareIds, loadDataset, stratifiedSample, type CatalogEntry } from './index.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

const types: AdaptType[] = ['factual', 'temporal', 'update', 'multi-hop', 'abstention'];
const catalog: CatalogEntry[] = Array.from({ length: 100 }, (_, i) => {
  const adaptType = i < 3 ? 'update' : types[i % 5]!;
  return { questionId: `q${i}`, nativeType: adaptType, adaptType, isAbstention: adaptType === 'abstention' };
});

describe('stratifiedSample', () => {
  it('draws perType per AdaptMR type, deterministically, whatever the input order', () => {
    const a = stratifiedSample(catalog, 4, 7);
    const b = stratifiedSample([...catalog].reverse(), 4, 7);
    expect([...a].sort()).toEqual([...b].sort());
    expect(a.size).toBe(20);
    for (const t of types) expect(catalog.filter((c) => c.adaptType === t && a.has(c.questionId))).toHaveLength(4);
    expect([...stratifiedSample(catalog, 4, 8)].sort()).not.toEqual([...a].sort());
  });
  it('keeps all of a type smaller than perType', () => {
    const small = catalog.slice(0, 6);
    expect(stratifiedSample(small, 10, 1).size).toBe(6);
  });
});

describe('compareIds', () => {
  it('orders digit runs numerically', () => {
    expect(['conv-26:q10', 'conv-26:q2', 'conv-3:q0', 'conv-26:q1'].sort(compareIds)).toEqual([
      'conv-3:q0',
      'conv-26:q1',
      'conv-26:q2',
      'conv-26:q10',
    ]);
  });
});

describe('loadDataset options', () => {
  it('applies sample, questionIds and limit', async () => {
    const dataDir = TEST_DATA_DIR;
    const s = await loadDataset({ name: 'longmemeval-oracle', sample: { perType: 3, seed: 1 } }, dataDir);
    expect(s.instances).toHaveLength(15);
    expect(new Set(s.instances.map((i) => i.gold.type)).size).toBe(5);
    const ids = await loadDataset({ name: 'locomo', questionIds: ['conv-30:q3', 'conv-26:q5'] }, dataDir);
    expect(ids.instances.map((i) => i.query.id)).toEqual(['conv-26:q5', 'conv-30:q3']);
    const lim = await loadDataset({ name: 'locomo', limit: 3 }, dataDir);
    expect(lim.instances.map((i) => i.query.id)).toEqual(['conv-26:q0', 'conv-26:q1', 'conv-26:q2']);
    await expect(loadDataset({ name: 'locomo', questionIds: ['conv-26:q9999'] }, dataDir)).rejects.toThrow(
      /not in the dataset/,
    );
  });
});
