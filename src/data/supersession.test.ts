// `gold.update` in a config (src/data/supersession.ts `withUpdateGold`; each benchmark's own rule is tested beside it).
import { describe, expect, it } from 'vitest';
import { DatasetRefSchema } from '../core/config.ts';

describe('gold.update in a config', () => {
  it('is accepted where the dataset names superseded evidence and refused elsewhere, naming the field', () => {
    expect(DatasetRefSchema.safeParse({ name: 'beam-100k', gold: { update: 'both' } }).success).toBe(true);
    const bad = DatasetRefSchema.safeParse({ name: 'longmemeval-s', gold: { update: 'both' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain(
      'gold.update applies only to a dataset whose knowledge updates name the superseded message (beam-100k, beam-500k)',
    );
  });
});
