/**
 * The AdaptMR method (plan §2.1): classifier → router → type-specific strategies, all from one config block.
 * Every ablation of the plan's experiment 4 is a config switch, so a sweep file can list them:
 * - w/o Classifier: `classifier: random` (a seeded uniformly random strategy per question);
 * - w/o Temporal / Update / Multi-hop / Abstention strategy: `replace: { temporal: unified, … }` (plain semantic
 *   retrieval in that strategy's place);
 * - w/o Entity Reranking: `strategies: { factual: { entityWeight: 0 } }`.
 * The oracle router (`router: { kind: oracle }`) is the plan's gold-type routing (not a bound: see the per-question ceiling): `run` then needs the
 * gold type as its 4th argument `oracleType`, which only the runner holds; the `oracleType` capability tells it so.
 *
 * Per question the output carries the predicted type and probabilities, the route taken, and the strategies' notes
 * (window found, events split, clusters merged, hops, abstention decision) in `retrieval.notes`.
 *
 * A config block (experiments/*.yaml, `methods[].options`); every field is optional:
 *
 *   classifier: { name: rules }            # or { name: llm }, { name: onnx, options: { model: … } }, or random
 *   router: { kind: fusion, threshold: 0.2, fusion: minmax }   # single | fusion | oracle | random; minmax | rank | rrf
 *   abstention: gate                       # route (plan) | gate (docs/design.md §2)
 *   strategies:
 *     factual: { mode: offline, entityWeight: 0.3 }
 *     temporal: { mode: llm }
 *     abstention: { thresholdsFile: calibration/abstention-thresholds.json }
 *   replace: { multi-hop: unified }
 *   routeMap: { temporal: factual }        # serve a type with another strategy (experiment 2's oracle map)
 *   firstStage: hybrid                     # embedding (default) | bm25 | hybrid: the candidate ranking under every strategy
 */
import { z } from 'zod';
import { classifiers } from '../classify/registry.ts';
import { InputError, tagStage } from '../core/errors.ts';
import type { Classifier, Ctx, MemoryIndex, Method, MethodFactoryContext, Strategy } from '../core/interfaces.ts';
import { defineMethod } from '../core/method-entry.ts';
import { FirstStageSchema, withFirstStage, type FirstStage } from '../index/first-stage.ts';
import { parseWith } from '../core/registry.ts';
import type { LlmRole } from '../core/llm.ts';
import {
  ADAPT_TYPES,
  invalidTypeProbs,
  type AdaptType,
  type MethodOutput,
  type Query,
  type Retrieval,
} from '../core/types.ts';
import {
  AbstentionOptionsSchema,
  createAbstentionJudge,
  decideAbstention,
  noMemoryRetrieval,
  type AbstentionJudge,
} from '../strategies/abstention.ts';
import { readThresholdsFile } from '../strategies/thresholds.ts';
import { strategies } from '../strategies/registry.ts';
import { renderContext } from '../strategies/render.ts';
import { memoriseUnitKeys } from '../strategies/text.ts';
import { createUnified } from '../strategies/unified.ts';
import { fuse } from './fusion.ts';
import { planRoute, RouterConfigSchema, type RouterConfig } from './router.ts';

const StrategyOptions = z.record(z.string(), z.unknown()).default({});
const StrategyNameSchema = z.enum([...ADAPT_TYPES, 'unified']);

export const AdaptmrOptionsSchema = z
  .object({
    /** A classifier from the `classifiers` registry, or `random` (the w/o-Classifier ablation). */
    classifier: z
      .union([
        z.literal('random'),
        z.object({ name: z.string(), options: z.record(z.string(), z.unknown()).default({}) }).strict(),
      ])
      .default({ name: 'rules', options: {} }),
    router: RouterConfigSchema.default(RouterConfigSchema.parse({})),
    /** Abstention as a routed type (`route`, the plan) or as a gate after every route (`gate`); docs/design.md §2. */
    abstention: z.enum(['route', 'gate']).default('route'),
    /** Options per strategy, checked against each strategy's own strict schema. */
    strategies: z
      .object({
        factual: StrategyOptions,
        temporal: StrategyOptions,
        update: StrategyOptions,
        'multi-hop': StrategyOptions,
        abstention: StrategyOptions,
      })
      .strict()
      .default({ factual: {}, temporal: {}, update: {}, 'multi-hop': {}, abstention: {} }),
    /** Which strategy serves each type (default: its own). The plan's experiment 2 "Oracle-Strategy" routes each
     * gold type to the strategy that was best for that type — choose that map on a development split, never on
     * the reported questions. `replace` wins over this map. */
    routeMap: z
      .object({
        factual: StrategyNameSchema.optional(),
        temporal: StrategyNameSchema.optional(),
        update: StrategyNameSchema.optional(),
        'multi-hop': StrategyNameSchema.optional(),
        abstention: StrategyNameSchema.optional(),
      })
      .strict()
      .default({}),
    /** The candidate ranking every strategy starts from: embedding (default), bm25, or hybrid (RRF); src/index/first-stage.ts. */
    firstStage: FirstStageSchema,
    /** Ablation: put plain semantic retrieval in a strategy's place. */
    replace: z
      .object({
        factual: z.literal('unified').optional(),
        temporal: z.literal('unified').optional(),
        update: z.literal('unified').optional(),
        'multi-hop': z.literal('unified').optional(),
        abstention: z.literal('unified').optional(),
      })
      .strict()
      .default({}),
  })
  .strict();
export type AdaptmrOptions = z.output<typeof AdaptmrOptionsSchema>;

export interface AdaptmrMethod extends Method {
  run(query: Query, index: MemoryIndex, ctx: Ctx, oracleType?: AdaptType): Promise<MethodOutput>;
}

export interface AdaptmrParts {
  /** The method's id (error messages). */
  name: string;
  k: number;
  /** Needed for `single` and `fusion` routers. */
  classifier?: Classifier;
  router: RouterConfig;
  abstention: 'route' | 'gate';
  strategies: Record<AdaptType, Strategy>;
  /** The abstention decision used by the gate (same options as the abstention strategy). */
  judge: AbstentionJudge;
  /** The first-stage retriever under the strategies (default embedding). */
  firstStage?: FirstStage;
}

/** Runs the routed strategies and fuses when several ran. A no-memory result decides only when it comes from the
 * top-weight route; from a lower-weight route its (empty) list simply adds nothing to the fusion. Fused context is
 * in fused rank order, with the update annotations and the temporal / multi-hop trailers of the strategies that ran. */
async function runRoute(
  parts: AdaptmrParts,
  runs: { type: AdaptType; weight: number }[],
  query: Query,
  index: MemoryIndex,
  ctx: Ctx,
): Promise<Retrieval> {
  const results: { type: AdaptType; weight: number; retrieval: Retrieval }[] = [];
  for (const r of runs)
    results.push({ ...r, retrieval: await parts.strategies[r.type].retrieve(query, index, parts.k, ctx) });
  const first = results[0]!;
  if (results.length === 1) return first.retrieval;
  // "No relevant memory" wins a fusion only with more probability behind it than behind the lists that answer, so a
  // question the classifier finds only somewhat likely to be unanswerable still gets the other strategies' memories.
  const silent = results.filter((r) => r.retrieval.noMemory);
  const silentMass = silent.reduce((s, r) => s + r.weight, 0);
  const answering = results.filter((r) => !r.retrieval.noMemory);
  if (silent.length > 0 && silentMass >= answering.reduce((s, r) => s + r.weight, 0)) return silent[0]!.retrieval;
  const units = fuse(
    answering.map((r) => ({ type: r.type, weight: r.weight, units: r.retrieval.units })),
    parts.k,
    { method: parts.router.fusion, rrfK: parts.router.rrfK, rrfWeighted: parts.router.rrfWeighted },
  );
  const annotations: Record<string, string> = {};
  const trailer: string[] = [];
  for (const r of results) {
    const notes = r.retrieval.notes ?? {};
    for (const [id, text] of Object.entries(notes.annotations ?? {})) if (!annotations[id]) annotations[id] = text;
    trailer.push(...(notes.trailer ?? []));
  }
  return {
    units,
    noMemory: false,
    context: renderContext(units, 'rank', { annotations, trailer }),
    notes: {
      fusion: { method: parts.router.fusion, weights: Object.fromEntries(results.map((r) => [r.type, r.weight])) },
      perStrategy: Object.fromEntries(results.map((r) => [r.type, r.retrieval.notes ?? {}])),
    },
  };
}

export function createAdaptmrFromParts(parts: AdaptmrParts): AdaptmrMethod {
  const needsClassifier = parts.router.kind === 'single' || parts.router.kind === 'fusion';
  // The router's fallback to the reference first stage: plain retrieval from the method's first stage.
  const firstStageOnly = createUnified();
  if (needsClassifier && !parts.classifier)
    throw new InputError(`router "${parts.router.kind}" needs a classifier`, `method ${parts.name}`);
  return {
    capabilities: {
      output: 'units',
      ...(parts.router.kind === 'oracle' ? { oracleType: true } : {}),
      ...llmRolesOf(parts),
    },
    // Memory writing of every strategy a question may be routed to (each once), and the gate's unit keys.
    async memorise(mi) {
      const index = withFirstStage(mi, parts.firstStage ?? 'embedding');
      for (const s of new Set(Object.values(parts.strategies))) s.memorise?.(index);
      if (parts.abstention === 'gate') memoriseUnitKeys(index.units);
    },
    async run(query, mi, ctx, oracleType) {
      const index = withFirstStage(mi, parts.firstStage ?? 'embedding');
      // Wall time per stage (classifier, retrieval, abstention gate), for the efficiency experiment (plan §3.4 exp 5).
      const t0 = performance.now();
      // A classifier failure is tagged with its stage, so the run summary counts it as one (src/run/record/failures.ts).
      const classified = needsClassifier
        ? await parts.classifier!.classify(query, ctx).catch((err: unknown) => {
            throw tagStage(err, 'classify');
          })
        : undefined;
      const bad = classified ? invalidTypeProbs(classified.probs) : undefined;
      if (bad)
        throw tagStage(
          new Error(
            `classifier ${parts.classifier!.name} gave unusable probabilities (${bad}) for question ${query.id}`,
          ),
          'classify',
        );
      const t1 = performance.now();
      const plan = planRoute(parts.router, parts.abstention, {
        seed: ctx.seed,
        ...(classified ? { probs: classified.probs } : {}),
        ...(oracleType ? { oracleType } : {}),
      });
      let retrieval = plan.firstStage
        ? await firstStageOnly.retrieve(query, index, parts.k, ctx)
        : await runRoute(parts, plan.runs, query, index, ctx);
      const t2 = performance.now();
      const stageMs: Record<string, number> = { classify: t1 - t0, retrieve: t2 - t1 };
      const routed = {
        ...(retrieval.notes ?? {}),
        route: plan.route,
        abstentionMode: parts.abstention,
        stageMs,
        ...(parts.router.kind === 'oracle' ? { upperBound: 'oracle (gold type)' } : {}),
      };
      if (parts.abstention === 'gate') {
        const decision = await decideAbstention(parts.judge, query, index, ctx);
        stageMs.gate = performance.now() - t2;
        retrieval = decision.noMemory
          ? noMemoryRetrieval(decision, { ...routed, gated: true })
          : { ...retrieval, notes: { ...routed, gate: decision } };
      } else {
        retrieval = { ...retrieval, notes: routed };
      }
      return {
        retrieval,
        route: plan.route,
        ...(classified ? { predictedType: classified.type, typeProbs: classified.probs } : {}),
      };
    },
  };
}

/** The LLM roles the parts call: the LLM classifiers (role `classifier`) and any strategy in LLM mode (`strategy`). */
function llmRolesOf(parts: AdaptmrParts): { llmRoles?: LlmRole[] } {
  const roles = new Set<LlmRole>();
  if (parts.classifier?.usesLlm) roles.add('classifier');
  if (Object.values(parts.strategies).some((s) => s.mode === 'llm')) roles.add('strategy');
  return roles.size > 0 ? { llmRoles: [...roles] } : {};
}

/** Builds the strategies of an options block (validating each strategy's options, naming the field on error). */
export async function buildStrategies(options: AdaptmrOptions, where: string): Promise<Record<AdaptType, Strategy>> {
  const out = {} as Record<AdaptType, Strategy>;
  const built = new Map<string, Strategy>();
  for (const type of ADAPT_TYPES) {
    const name = options.replace[type] ?? options.routeMap[type] ?? type;
    let strategy = built.get(name);
    if (!strategy) {
      strategy =
        name === 'unified'
          ? createUnified()
          : await strategies.create(name, options.strategies[name], undefined, `${where}.strategies.${name}`);
      built.set(name, strategy);
    }
    out[type] = strategy;
  }
  return out;
}

/** From a parsed options block; `classifier` overrides the configured one (tests, or a classifier built elsewhere). */
export async function createAdaptmrMethod(
  options: AdaptmrOptions,
  context: Pick<MethodFactoryContext, 'id' | 'k'>,
  classifier?: Classifier,
): Promise<AdaptmrMethod> {
  const where = `method ${context.id}`;
  let router = options.router;
  if (options.classifier === 'random') {
    if (router.kind !== 'single' && router.kind !== 'random') {
      throw new InputError(
        `classifier "random" picks one strategy per question; it cannot drive router "${router.kind}"`,
        `${where}.router.kind`,
      );
    }
    router = { ...router, kind: 'random' };
  }
  const needsClassifier = router.kind === 'single' || router.kind === 'fusion';
  const built =
    classifier ??
    (needsClassifier && options.classifier !== 'random'
      ? await classifiers.create(options.classifier.name, options.classifier.options, {}, `${where}.classifier`)
      : undefined);
  router = resolveFallback(router, built, where);
  const abstentionOptions = parseWith(
    AbstentionOptionsSchema,
    options.strategies.abstention,
    `${where}.strategies.abstention`,
  );
  const method = createAdaptmrFromParts({
    name: context.id,
    k: context.k,
    ...(built ? { classifier: built } : {}),
    router,
    abstention: options.abstention,
    strategies: await buildStrategies(options, where),
    judge: createAbstentionJudge(abstentionOptions),
    firstStage: options.firstStage,
  });
  // Thresholds or classifier probabilities calibrated on some questions: those questions are held out of the evaluation.
  const calibrated = [
    ...(abstentionOptions.thresholdsFile
      ? Object.values(readThresholdsFile(abstentionOptions.thresholdsFile).embedders).flatMap(
          (e) => e.calibrationQuestionIds,
        )
      : []),
    ...(built?.excludedQuestionIds ?? []),
  ];
  return calibrated.length > 0 ? { ...method, excludedQuestionIds: new Set(calibrated) } : method;
}

/** `router.fallback.below: model` → the threshold stored in the classifier's file (fitted on its training benchmarks). */
function resolveFallback(router: RouterConfig, classifier: Classifier | undefined, where: string): RouterConfig {
  const fb = router.fallback;
  if (!fb) return router;
  if (router.kind !== 'single')
    throw new InputError(`fallback applies to the single router, not "${router.kind}"`, `${where}.router.fallback`);
  if (fb.below !== 'model') return router;
  const t = classifier?.fallbackThreshold;
  if (t === undefined)
    throw new InputError(
      `the classifier has no fitted fallback threshold (an onnx model trained with \`adaptmr classifier train --datasets\` has one); give a number`,
      `${where}.router.fallback.below`,
    );
  return { ...router, fallback: { ...fb, below: t } };
}

/** The `adaptmr` entry of the method registry (src/run/methods/method-registry.ts). */
export const adaptmrEntry = defineMethod({
  name: 'adaptmr',
  description:
    'AdaptMR: query-type classifier + router (single | fusion | oracle: gold-type routing | random) + five type-specific strategies (plan §2)',
  optionsSchema: AdaptmrOptionsSchema,
  examples: [
    { label: 'rules, single', options: {} },
    { label: 'rules, fusion, gate', options: { router: { kind: 'fusion' }, abstention: 'gate' } },
    { label: 'random (w/o classifier)', options: { classifier: 'random' } },
    { label: 'rules, single, over bm25', options: { firstStage: 'bm25' } },
    { label: 'rules, fusion, over hybrid', options: { router: { kind: 'fusion' }, firstStage: 'hybrid' } },
    {
      label: 'llm classifier and strategies',
      options: {
        classifier: { name: 'llm', options: {} },
        strategies: {
          factual: { mode: 'llm' },
          temporal: { mode: 'llm' },
          update: { mode: 'llm' },
          'multi-hop': { mode: 'llm' },
          abstention: { mode: 'llm' },
        },
      },
    },
  ],
  create: (options, context) => createAdaptmrMethod(options, context),
});
