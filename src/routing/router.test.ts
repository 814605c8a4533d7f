// Routers: argmax, fusion threshold, oracle (gold only through oracleType), seeded random, abstention route | gate.
import { describe, expect, it } from 'vitest';
import { ADAPT_TYPES, type AdaptType } from '../core/types.ts';
import { planRoute, randomType, routableProbs, RouterConfigSchema } from './router.ts';

const probs = (p: Partial<Record<AdaptType, number>>): Record<AdaptType, number> =>
  Object.fromEntries(ADAPT_TYPES.map((t) => [t, p[t] ?? 0])) as Record<AdaptType, number>;
const cfg = (o: object) => RouterConfigSchema.parse(o);

describe('planRoute', () => {
  it('single: the argmax type', () => {
    expect(planRoute(cfg({}), 'route', { seed: 1, probs: probs({ temporal: 0.6, factual: 0.4 }) })).toEqual({
      runs: [{ type: 'temporal', weight: 1 }],
      route: 'single:temporal',
    });
  });

  it('fusion: every type with p ≥ τ, highest first; the argmax always runs', () => {
    const p = probs({ temporal: 0.5, factual: 0.3, update: 0.15, abstention: 0.05 });
    const plan = planRoute(cfg({ kind: 'fusion', threshold: 0.2 }), 'route', { seed: 1, probs: p });
    expect(plan.runs).toEqual([
      { type: 'temporal', weight: 0.5 },
      { type: 'factual', weight: 0.3 },
    ]);
    expect(plan.route).toBe('fusion:temporal+factual');
    const flat = planRoute(cfg({ kind: 'fusion', threshold: 0.9 }), 'route', { seed: 1, probs: p });
    expect(flat).toEqual({ runs: [{ type: 'temporal', weight: 0.5 }], route: 'single:temporal' });
  });

  it('gate: abstention is never routed; the rest is renormalised', () => {
    const p = probs({ abstention: 0.5, factual: 0.3, temporal: 0.2 });
    expect(routableProbs(p, 'gate')).toEqual([
      ['factual', 0.6],
      ['temporal', 0.4],
      ['update', 0],
      ['multi-hop', 0],
    ]);
    expect(planRoute(cfg({}), 'gate', { seed: 1, probs: p }).route).toBe('single:factual');
    expect(planRoute(cfg({}), 'route', { seed: 1, probs: p }).route).toBe('single:abstention');
  });

  it('oracle: needs oracleType; a gold abstention under the gate routes to factual', () => {
    expect(() => planRoute(cfg({ kind: 'oracle' }), 'route', { seed: 1 })).toThrow(/oracleType/);
    expect(planRoute(cfg({ kind: 'oracle' }), 'route', { seed: 1, oracleType: 'update' }).route).toBe('oracle:update');
    expect(planRoute(cfg({ kind: 'oracle' }), 'gate', { seed: 1, oracleType: 'abstention' }).route).toBe(
      'oracle:factual',
    );
  });

  it('random: deterministic per seed, covers every routable type', () => {
    expect(randomType(42, 'route')).toBe(randomType(42, 'route'));
    const seen = new Set(Array.from({ length: 200 }, (_, s) => randomType(s, 'route')));
    expect([...seen].sort()).toEqual([...ADAPT_TYPES].sort());
    const gated = new Set(Array.from({ length: 200 }, (_, s) => randomType(s, 'gate')));
    expect(gated.has('abstention')).toBe(false);
    expect(gated.size).toBe(4);
  });
});
