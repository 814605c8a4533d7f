// Temporal strategy on the plan's haystack (asked 2023-08-20): window filter, event comparison, chronological context.
import { describe, expect, it } from 'vitest';
import type { IndexSpec } from '../core/interfaces.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { createTemporal, TemporalOptionsSchema } from './temporal.ts';
import { frozenQuery, offlineCtx, PLAN_HAYSTACK } from './testing/fixtures.ts';

const SPEC: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const index = createMemoryIndex(PLAN_HAYSTACK, SPEC, createWinkSifEmbedder());

describe('temporal strategy', () => {
  it('"last month" keeps only last month\'s sessions (padToK off)', async () => {
    const s = createTemporal(TemporalOptionsSchema.parse({ padToK: false }));
    const r = await s.retrieve(
      frozenQuery('Which restaurant did you recommend to me last month?'),
      index,
      5,
      offlineCtx(),
    );
    expect(r.units.map((u) => u.unit.id)).toEqual(['M7']);
    expect(r.notes).toMatchObject({
      path: 'window',
      window: { startDay: '2023-07-01', endDay: '2023-07-31', unitsInWindow: 1 },
    });
  });

  it('with padToK the window comes first, then the semantic rest; the context is chronological', async () => {
    const s = createTemporal(TemporalOptionsSchema.parse({}));
    const r = await s.retrieve(
      frozenQuery('Which restaurant did you recommend to me last month?'),
      index,
      4,
      offlineCtx(),
    );
    expect(r.units[0]!.unit.id).toBe('M7');
    expect(r.units).toHaveLength(4);
    const dates = [...r.context.matchAll(/\[(\d{4}\/\d{2}\/\d{2})/g)].map((m) => m[1]!);
    expect(dates).toEqual([...dates].sort());
  });

  it('compares events: best match per event and a timeline, earliest first', async () => {
    const s = createTemporal(TemporalOptionsSchema.parse({ padToK: false }));
    const r = await s.retrieve(frozenQuery('Did I start running before I moved to Hangzhou?'), index, 5, offlineCtx());
    expect(r.notes).toMatchObject({ path: 'events' });
    const events = (r.notes!.events as { event: string; unitId: string }[]).map((e) => [e.event, e.unitId]);
    expect(events).toEqual([
      ['start running', 'M6'],
      ['moved to Hangzhou', 'M4'],
    ]);
    expect(r.context).toContain(
      'Timeline of the events asked about (earliest first):\n- [2023-04-20] moved to Hangzhou\n- [2023-06-08] start running',
    );
  });

  it('without window or events: semantic top-k, shown in time order', async () => {
    const s = createTemporal(TemporalOptionsSchema.parse({}));
    const r = await s.retrieve(frozenQuery('How far do I run?'), index, 3, offlineCtx());
    expect(r.notes).toMatchObject({ path: 'semantic' });
    expect(r.units).toHaveLength(3);
  });
});
