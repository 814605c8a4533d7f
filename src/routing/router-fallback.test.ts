// The single router's confidence fallback: below the threshold it routes as fusion would, or runs the
// first stage alone; at or above it, the argmax as before; `model` must be resolved from the classifier file first.
import { describe, expect, it } from 'vitest';
import { ADAPT_TYPES, type AdaptType } from '../core/types.ts';
import { planRoute, RouterConfigSchema } from './router.ts';
import { AdaptmrOptionsSchema, createAdaptmrMethod } from './adaptmr-method.ts';

const probs = (p: Partial<Record<AdaptType, number>>): Record<AdaptType, number> =>
  Object.fromEntries(ADAPT_TYPES.map((t) => [t, p[t] ?? 0])) as Record<AdaptType, number>;
const cfg = (o: object) => RouterConfigSchema.parse(o);
const unsure = probs({ temporal: 0.45, factual: 0.35, update: 0.2 });
const sure = probs({ temporal: 0.8, factual: 0.2 });

describe('single router fallback', () => {
  it('below the threshold: the fusion route, labelled as a fallback', () => {
    const plan = planRoute(cfg({ fallback: { below: 0.5 } }), 'route', { seed: 1, probs: unsure });
    expect(plan.route).toBe('fallback:fusion:temporal+factual+update');
    expect(plan.runs.map((r) => r.type)).toEqual(['temporal', 'factual', 'update']);
  });

  it('at or above it: the argmax, as without a fallback', () => {
    expect(planRoute(cfg({ fallback: { below: 0.5 } }), 'route', { seed: 1, probs: sure })).toEqual({
      runs: [{ type: 'temporal', weight: 1 }],
      route: 'single:temporal',
    });
  });

  it('to the first stage: no strategy runs', () => {
    const plan = planRoute(cfg({ fallback: { below: 0.5, to: 'first-stage' } }), 'route', { seed: 1, probs: unsure });
    expect(plan).toEqual({ runs: [], route: 'fallback:first-stage', firstStage: true });
  });

  it('an unresolved `model` threshold is an error, not a silent route', () => {
    expect(() => planRoute(cfg({ fallback: {} }), 'route', { seed: 1, probs: sure })).toThrow(/not resolved/);
  });
});

describe('fallback threshold `model`', () => {
  const clf = (fallbackThreshold?: number) => ({
    name: 'fake',
    ...(fallbackThreshold !== undefined ? { fallbackThreshold } : {}),
    classify: async () => ({ type: 'temporal' as const, probs: unsure }),
  });
  const options = (router: object) => AdaptmrOptionsSchema.parse({ router });

  it('is read from the classifier (its file’s fitted threshold)', async () => {
    const m = await createAdaptmrMethod(options({ kind: 'single', fallback: {} }), { id: 'm', k: 5 }, clf(0.5));
    expect(m).toBeDefined();
  });

  it('a classifier without one: a one-line error naming the field', async () => {
    await expect(
      createAdaptmrMethod(options({ kind: 'single', fallback: {} }), { id: 'm', k: 5 }, clf()),
    ).rejects.toThrow(/method m\.router\.fallback\.below/);
  });

  it('only the single router falls back', async () => {
    await expect(
      createAdaptmrMethod(options({ kind: 'fusion', fallback: { below: 0.5 } }), { id: 'm', k: 5 }, clf(0.5)),
    ).rejects.toThrow(/single router/);
  });
});
