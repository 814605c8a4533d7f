// Multi-hop strategy: offline decomposition, per-step retrieval with earlier findings, reasoning in the context.
import { describe, expect, it } from 'vitest';
import type { IndexSpec } from '../core/interfaces.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { createMultiHop, decomposeOffline, isAggregation, MultiHopOptionsSchema } from './multi-hop.ts';
import { frozenQuery, offlineCtx, PLAN_HAYSTACK } from './testing/fixtures.ts';

const SPEC: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const index = createMemoryIndex(PLAN_HAYSTACK, SPEC, createWinkSifEmbedder());

describe('multi-hop strategy', () => {
  it('decomposes at clause conjunctions, else question + keywords, capped at maxHops', () => {
    expect(decomposeOffline('What hobbies does Wang have and which hobbies did I mention?', 3)).toEqual({
      kind: 'conjunction',
      steps: ['What hobbies does Wang have', 'which hobbies did I mention?'],
    });
    expect(decomposeOffline('What did I say about the GPS?', 3)).toEqual({
      kind: 'keywords',
      steps: ['What did I say about the GPS?', 'gps'],
    });
    expect(decomposeOffline('What hobbies does Wang have and which hobbies did I mention?', 1).steps).toHaveLength(1);
  });

  it('aggregation questions: the question, its items, then each content word (English and Chinese)', () => {
    expect(isAggregation('Which cuisine did I mention most?')).toBe(true);
    expect(isAggregation('How many days did I spend camping in total?')).toBe(true);
    expect(isAggregation('我提到过的餐厅里，哪种菜系我提到的次数最多？')).toBe(true);
    expect(isAggregation('我一共去过几次杭州？')).toBe(true);
    expect(isAggregation("What is my cat's name?")).toBe(false);
    expect(decomposeOffline('Among the restaurants I asked about, which cuisine did I mention the most?', 3)).toEqual({
      kind: 'aggregation',
      steps: [
        'Among the restaurants I asked about, which cuisine did I mention the most?',
        'restaurants cuisine',
        'restaurants',
      ],
    });
    expect(decomposeOffline('我提到过的餐厅里，哪种菜系我提到的次数最多？', 4).steps).toEqual([
      '我提到过的餐厅里，哪种菜系我提到的次数最多？',
      '餐厅 菜系',
      '餐厅',
      '菜系',
    ]);
  });

  it('returns deduplicated memories plus the intermediate reasoning', async () => {
    const s = createMultiHop(MultiHopOptionsSchema.parse({}));
    const r = await s.retrieve(
      frozenQuery('Which restaurants in Hangzhou did I ask about and which Sichuan restaurant did you recommend?'),
      index,
      4,
      offlineCtx(),
    );
    const hops = r.notes!.hops as { subQuestion: string; answer: string }[];
    expect(hops.map((h) => h.subQuestion)).toEqual([
      'Which restaurants in Hangzhou did I ask about',
      'which Sichuan restaurant did you recommend?',
    ]);
    expect(hops[1]!.answer).toContain('Sichuan restaurant');
    const ids = r.units.map((u) => u.unit.id);
    expect(ids).toEqual(expect.arrayContaining(['M5', 'M7']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(r.context).toMatch(
      /Intermediate reasoning:\n1\. Which restaurants in Hangzhou did I ask about → .+\n2\. which Sichuan restaurant did you recommend\? → /,
    );
  });
});
