/**
 * Routers (plan §2.4): decide which strategies run for a question and with what weight.
 * - `single`: the argmax type's strategy (plan 单策略路由).
 * - `fusion`: every type whose probability ≥ τ (plan: 0.2) runs, weighted by its probability; the argmax always
 *   runs even if below τ. Lists are fused by fusion.ts.
 * - `oracle`: the gold type — gold-type routing, a reference that saw gold, never a result of the system; the gold type arrives only as the
 *   explicitly named `oracleType` argument, which the runner passes to this router alone.
 * - `random`: a uniformly random type, seeded per question (`ctx.seed`) — the plan's "w/o Classifier" ablation.
 *
 * The single router may fall back when the classifier is unsure (`fallback`): below a top probability
 * (a number, or `model`: the threshold fitted on the classifier's training benchmarks and stored in its file) it
 * routes as `fusion` would (route `fallback:fusion:<types>` / `fallback:single:<type>`), or runs the reference first
 * stage alone (`fallback:first-stage`, plain retrieval from the method's first stage).
 *
 * Abstention (docs/design.md §2): with `abstention: route` it is a routed type like the others; with `gate` it is never
 * routed — its probability is dropped and the rest renormalised (the oracle and random routers pick among the
 * other four; a gold `abstention` type routes to `factual`, plain retrieval for a plain-looking question) — and the
 * abstention decision is applied after every route instead (adaptmr-method.ts).
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import { ADAPT_TYPES, type AdaptType } from '../core/types.ts';

export const RouterConfigSchema = z
  .object({
    kind: z.enum(['single', 'fusion', 'oracle', 'random']).default('single'),
    /** Fusion: types with probability ≥ threshold run (plan: `if prob > 0.2`). */
    threshold: z.number().min(0).max(1).default(0.2),
    fusion: z.enum(['minmax', 'rank', 'rrf']).default('minmax'),
    /** RRF constant (Cormack et al. 2009: 60). */
    rrfK: z.number().positive().default(60),
    rrfWeighted: z.boolean().default(false),
    /** Single router: fall back below this top probability (`model`: the classifier file's fitted threshold). */
    fallback: z
      .object({
        below: z.union([z.number().min(0).max(1), z.literal('model')]).default('model'),
        to: z.enum(['fusion', 'first-stage']).default('fusion'),
      })
      .strict()
      .optional(),
  })
  .strict();
export type RouterConfig = z.output<typeof RouterConfigSchema>;

export type AbstentionMode = 'route' | 'gate';

export interface RoutePlan {
  /** Strategies to run, highest weight first. */
  runs: { type: AdaptType; weight: number }[];
  /** Label stored per question, e.g. `single:temporal`, `fusion:temporal+factual`, `oracle:update`. */
  route: string;
  /** The fallback to the reference first stage alone: `runs` is empty. */
  firstStage?: true;
}

function routable(mode: AbstentionMode): readonly AdaptType[] {
  return mode === 'gate' ? ADAPT_TYPES.filter((t) => t !== 'abstention') : ADAPT_TYPES;
}

/** Probabilities over the routable types, renormalised (uniform when they sum to 0). */
export function routableProbs(probs: Record<AdaptType, number>, mode: AbstentionMode): [AdaptType, number][] {
  const types = routable(mode);
  const total = types.reduce((s, t) => s + Math.max(0, probs[t] ?? 0), 0);
  return types.map((t) => [t, total > 0 ? Math.max(0, probs[t] ?? 0) / total : 1 / types.length]);
}

function argmax(entries: [AdaptType, number][]): AdaptType {
  // Ties: the first type in ADAPT_TYPES order.
  let best = entries[0]!;
  for (const e of entries) if (e[1] > best[1]) best = e;
  return best[0];
}

export function randomType(seed: number, mode: AbstentionMode): AdaptType {
  const types = routable(mode);
  return types[uniformInt(xoroshiro128plus(seed | 0), 0, types.length - 1)]!;
}

export interface RouteInput {
  probs?: Record<AdaptType, number>;
  seed: number;
  /** Gold type — only for the `oracle` router (gold-type routing). */
  oracleType?: AdaptType;
}

export function planRoute(config: RouterConfig, mode: AbstentionMode, input: RouteInput): RoutePlan {
  switch (config.kind) {
    case 'oracle': {
      if (!input.oracleType)
        throw new InputError(
          'the oracle router needs the gold type (oracleType); only the runner can pass it',
          'router oracle',
        );
      const type = mode === 'gate' && input.oracleType === 'abstention' ? 'factual' : input.oracleType;
      return { runs: [{ type, weight: 1 }], route: `oracle:${type}` };
    }
    case 'random': {
      const type = randomType(input.seed, mode);
      return { runs: [{ type, weight: 1 }], route: `random:${type}` };
    }
    case 'single': {
      if (!input.probs) throw new InputError('the single router needs class probabilities', 'router single');
      const entries = routableProbs(input.probs, mode);
      const type = argmax(entries);
      const fb = config.fallback;
      if (fb) {
        if (fb.below === 'model')
          throw new InputError(
            'fallback threshold "model" was not resolved from the classifier file',
            'router.fallback.below',
          );
        const top = Math.max(...entries.map(([, p]) => p));
        if (top < fb.below) {
          if (fb.to === 'first-stage') return { runs: [], route: 'fallback:first-stage', firstStage: true };
          const fused = fusionPlan(config, entries);
          return { ...fused, route: `fallback:${fused.route}` };
        }
      }
      return { runs: [{ type, weight: 1 }], route: `single:${type}` };
    }
    case 'fusion': {
      if (!input.probs) throw new InputError('the fusion router needs class probabilities', 'router fusion');
      return fusionPlan(config, routableProbs(input.probs, mode));
    }
  }
}

function fusionPlan(config: RouterConfig, entries: [AdaptType, number][]): RoutePlan {
  const top = argmax(entries);
  const runs = entries
    .filter(([t, p]) => p >= config.threshold || t === top)
    .map(([type, weight]) => ({ type, weight }))
    .sort((a, b) => b.weight - a.weight || ADAPT_TYPES.indexOf(a.type) - ADAPT_TYPES.indexOf(b.type));
  return { runs, route: `${runs.length > 1 ? 'fusion' : 'single'}:${runs.map((r) => r.type).join('+')}` };
}
