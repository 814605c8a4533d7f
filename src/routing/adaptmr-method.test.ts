// The AdaptMR method end to end on the plan's haystack: routes, fusion, oracle, random and the ablation switches.
import { describe, expect, it } from 'vitest';
import type { Classifier, IndexSpec } from '../core/interfaces.ts';
import { ADAPT_TYPES, type AdaptType } from '../core/types.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../index/index.ts';
import { frozenQuery, guardedIndex, offlineCtx, PLAN_HAYSTACK } from '../strategies/testing/fixtures.ts';
import { parseWith } from '../core/registry.ts';
import { AdaptmrOptionsSchema, adaptmrEntry, createAdaptmrMethod } from './adaptmr-method.ts';

const SPEC: IndexSpec = { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true };
const embedder = createWinkSifEmbedder();
const index = guardedIndex(createMemoryIndex(PLAN_HAYSTACK, SPEC, embedder));
const context = { id: 'adaptmr-test', index: SPEC, k: 4, seed: 42, runKey: 'test', llmRoles: [] };

/** Options parsed as the method registry parses them (errors name the field), then the method built. */
async function make(options: unknown, classifier?: Classifier) {
  return createAdaptmrMethod(parseWith(AdaptmrOptionsSchema, options, 'method adaptmr-test'), context, classifier);
}

/** A classifier with fixed probabilities (the Classifier interface, not a stand-in for any service). */
function fixed(p: Partial<Record<AdaptType, number>>): Classifier {
  const probs = Object.fromEntries(ADAPT_TYPES.map((t) => [t, p[t] ?? 0])) as Record<AdaptType, number>;
  const type = ADAPT_TYPES.reduce((a, b) => (probs[b] > probs[a] ? b : a));
  return { name: 'fixed', classify: async () => ({ type, probs }) };
}

describe('AdaptMR method', () => {
  it('single route with the rules classifier from the registry: type, probabilities, route and notes stored', async () => {
    const m = await adaptmrEntry.create(parseWith(AdaptmrOptionsSchema, {}), context);
    const out = await m.run(frozenQuery('Which restaurant did you recommend to me last month?'), index, offlineCtx());
    expect(out.predictedType).toBeDefined();
    expect(Object.keys(out.typeProbs!).sort()).toEqual([...ADAPT_TYPES].sort());
    expect(out.route).toBe(`single:${out.predictedType}`);
    expect(out.retrieval.notes).toMatchObject({ route: out.route, abstentionMode: 'route' });
    expect(out.retrieval.units.length).toBeLessThanOrEqual(4);
  });

  it("fusion runs every type above τ and records the weights and each strategy's notes", async () => {
    const m = await make(
      { router: { kind: 'fusion', threshold: 0.2 } },
      fixed({ temporal: 0.5, update: 0.3, factual: 0.2 }),
    );
    const out = await m.run(frozenQuery('Where do I live now?'), index, offlineCtx());
    expect(out.route).toBe('fusion:temporal+update+factual');
    expect(out.retrieval.notes).toMatchObject({
      fusion: { method: 'minmax', weights: { temporal: 0.5, update: 0.3, factual: 0.2 } },
      perStrategy: {
        temporal: { strategy: 'temporal' },
        update: { strategy: 'update' },
        factual: { strategy: 'factual' },
      },
    });
    const scores = out.retrieval.units.map((u) => u.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('fusion and abstention: "no memory" wins only with more probability than the answering lists', async () => {
    // A question whose memories never name it: the abstention strategy says no memory (plan thresholds).
    const q = frozenQuery('What is my blood type?');
    const likely = await (await make({ router: { kind: 'fusion' } }, fixed({ abstention: 0.6, factual: 0.4 }))).run(
      q,
      index,
      offlineCtx(),
    );
    expect(likely.retrieval.noMemory).toBe(true);
    const unlikely = await (
      await make({ router: { kind: 'fusion' } }, fixed({ abstention: 0.45, factual: 0.3, temporal: 0.25 }))
    ).run(q, index, offlineCtx());
    expect(unlikely.route).toBe('fusion:abstention+factual+temporal');
    expect(unlikely.retrieval.noMemory).toBe(false);
    expect(unlikely.retrieval.units.length).toBe(4);
    expect(unlikely.retrieval.notes).toMatchObject({
      fusion: { weights: { abstention: 0.45, factual: 0.3, temporal: 0.25 } },
    });
  });

  it('fusion weights follow the probabilities: the same lists in another proportion give another order', async () => {
    const q = frozenQuery('Did I start running before I moved to Hangzhou?');
    const a = await (
      await make({ router: { kind: 'fusion', threshold: 0.05 } }, fixed({ temporal: 0.9, update: 0.1 }))
    ).run(q, index, offlineCtx());
    const b = await (
      await make({ router: { kind: 'fusion', threshold: 0.05 } }, fixed({ temporal: 0.1, update: 0.9 }))
    ).run(q, index, offlineCtx());
    expect(a.route).toBe('fusion:temporal+update');
    expect(b.route).toBe('fusion:update+temporal');
    const temporalAlone = await (await make({}, fixed({ temporal: 1 }))).run(q, index, offlineCtx());
    expect(a.retrieval.units[0]!.unit.id).toBe(temporalAlone.retrieval.units[0]!.unit.id);
    expect(b.retrieval.units.map((u) => u.unit.id)).not.toEqual(a.retrieval.units.map((u) => u.unit.id));
  });

  it('oracle: needs the gold type as oracleType and is labelled gold-type routing', async () => {
    const m = await make({ router: { kind: 'oracle' } });
    expect(m.capabilities.oracleType).toBe(true);
    await expect(m.run(frozenQuery('Where do I live now?'), index, offlineCtx())).rejects.toThrow(/oracleType/);
    const out = await m.run(frozenQuery('Where do I live now?'), index, offlineCtx(), 'update');
    expect(out.route).toBe('oracle:update');
    expect(out.predictedType).toBeUndefined();
    expect(out.retrieval.notes).toMatchObject({ upperBound: 'oracle (gold type)', strategy: 'update' });
  });

  it('classifier: random picks a seeded strategy (w/o Classifier ablation)', async () => {
    const m = await make({ classifier: 'random' });
    const q = frozenQuery('Where do I live now?');
    const routes = await Promise.all(
      [1, 1, 2, 3, 4, 5, 6, 7, 8].map(async (seed) => (await m.run(q, index, offlineCtx(seed))).route),
    );
    expect(routes[0]).toBe(routes[1]);
    expect(routes.every((r) => r!.startsWith('random:'))).toBe(true);
    expect(new Set(routes).size).toBeGreaterThan(1);
    await expect(make({ classifier: 'random', router: { kind: 'fusion' } })).rejects.toThrow(/router\.kind/);
  });

  it("replace: { temporal: unified } puts plain semantic retrieval in the temporal strategy's place", async () => {
    const m = await make({ router: { kind: 'oracle' }, replace: { temporal: 'unified' } });
    const out = await m.run(
      frozenQuery('Which restaurant did you recommend to me last month?'),
      index,
      offlineCtx(),
      'temporal',
    );
    expect(out.retrieval.notes).toMatchObject({ strategy: 'unified' });
    expect(out.retrieval.units.map((u) => u.unit.id)).toEqual(
      (await index.semantic('Which restaurant did you recommend to me last month?', 4)).map((u) => u.unit.id),
    );
  });

  it('routeMap serves a type with another strategy (experiment 2 oracle map)', async () => {
    const m = await make({
      router: { kind: 'oracle' },
      routeMap: { temporal: 'factual' },
      strategies: { factual: { entityWeight: 0.5 } },
    });
    const out = await m.run(frozenQuery("What is my cat's name?"), index, offlineCtx(), 'temporal');
    expect(out.route).toBe('oracle:temporal');
    expect(out.retrieval.notes).toMatchObject({ strategy: 'factual', entityWeight: 0.5 });
    await expect(make({ routeMap: { temporal: 'bm25' } })).rejects.toThrow(/routeMap\.temporal/);
  });

  it('factual.entityWeight: 0 (w/o entity reranking) reaches the strategy', async () => {
    const m = await make({ router: { kind: 'oracle' }, strategies: { factual: { entityWeight: 0 } } });
    const out = await m.run(frozenQuery("What is my cat's name?"), index, offlineCtx(), 'factual');
    expect(out.retrieval.notes).toMatchObject({ entityWeight: 0, entities: [] });
  });

  it('abstention as a gate after every route', async () => {
    const high = { thresholds: { [embedder.id]: { high: 2, low: 1.5 } } }; // cosines never reach 1.5: always abstain
    const m = await make(
      { abstention: 'gate', strategies: { abstention: high } },
      fixed({ abstention: 0.9, temporal: 0.1 }),
    );
    const out = await m.run(frozenQuery('What is my blood type?'), index, offlineCtx());
    expect(out.route).toBe('single:temporal');
    expect(out.retrieval.noMemory).toBe(true);
    expect(out.retrieval.notes).toMatchObject({ gated: true, abstention: { band: 'low' }, strategy: 'temporal' });
  });

  it('typos in options fail naming the field', async () => {
    await expect(make({ strategies: { factual: { entityWieght: 0 } } })).rejects.toThrow(
      /strategies\.factual.*entityWieght/,
    );
    await expect(make({ routr: {} })).rejects.toThrow(/routr/);
    await expect(make({ replace: { temporal: 'bm25' } })).rejects.toThrow(/replace\.temporal/);
  });
});
