// Multi-hop strategy: offline decomposition, per-step retrieval with earlier findings, reasoning in the context.
import { describe, expect, it } from 'vitest';
import type { IndexSpec } from '../core/interfaces.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { createMultiHop, decomposeOffline, MultiHopOptionsSchema } from './multi-hop.ts';
import { frozenQuery, offlineCtx, PLAN_HAYSTACK } from './testing/fixtures.ts';

const SPEC: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const index = createMemoryIndex(PLAN_HAYSTACK, SPEC, createWinkSifEmbedder());

describe('multi-hop strategy', () => {
  it('decomposes at clause conjunctions, else question + keywords, capped at maxHops', () => {
    expect(decomposeOffline('What hobbies does Wang have and which hobbies did I mention?', 3)).toEqual([
      'What hobbies does Wang have',
      'which hobbies did I mention?',
    ]);
    expect(decomposeOffline('Which cuisine did I mention most?', 3)).toEqual(['Which cuisine did I mention most?', 'cuisine']);
    expect(decomposeOffline('What hobbies does Wang have and which hobbies did I mention?', 1)).toHaveLength(1);
  });

  it('returns deduplicated memories plus the intermediate reasoning', async () => {
    const s = createMultiHop(MultiHopOptionsSchema.parse({}));
    const r = await s.retrieve(frozenQuery('Which restaurants in Hangzhou did I ask about and which Sichuan restaurant did you recommend?'), index, 4, offlineCtx());
    const hops = r.notes!.hops as { subQuestion: string; answer: string }[];
    expect(hops.map((h) => h.subQuestion)).toEqual(['Which restaurants in Hangzhou did I ask about', 'which Sichuan restaurant did you recommend?']);
    expect(hops[1]!.answer).toContain('Sichuan restaurant');
    const ids = r.units.map((u) => u.unit.id);
    expect(ids).toEqual(expect.arrayContaining(['M5', 'M7']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(r.context).toMatch(/Intermediate reasoning:\n1\. Which restaurants in Hangzhou did I ask about → .+\n2\. which Sichuan restaurant did you recommend\? → /);
  });
});
