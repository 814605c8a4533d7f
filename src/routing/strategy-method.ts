/**
 * One strategy as a method of its own: `method: strategy, options: { name: temporal, options: {…} }` runs
 * that strategy on every question, whatever its type, so an experiment can report every strategy's retrieval metrics
 * by type next to unified retrieval and AdaptMR — the input of the oracle strategy (held-out)
 * (`adaptmr analyze best-strategy`). The strategy's options are checked against its own strict schema before any
 * work; with an abstention `thresholdsFile`, the calibration questions are held out like the adaptmr method does.
 * `firstStage: bm25 | hybrid` puts another candidate ranking under the strategy (src/index/first-stage.ts); `unified`
 * over `hybrid` is then the reciprocal-rank-fusion baseline AdaptMR-over-hybrid is compared with.
 */
import { z } from 'zod';
import type { Method, MethodFactoryContext } from '../core/interfaces.ts';
import { defineMethod } from '../core/method-entry.ts';
import { FirstStageSchema, withFirstStage } from '../index/first-stage.ts';
import { strategies } from '../strategies/registry.ts';
import { readThresholdsFile } from '../strategies/thresholds.ts';

export const StrategyMethodOptionsSchema = z
  .object({
    /** A name of the `strategies` registry: factual, temporal, update, multi-hop, abstention, unified. */
    name: z.string(),
    /** That strategy's options (its own strict schema). */
    options: z.record(z.string(), z.unknown()).default({}),
    /** The candidate ranking the strategy starts from: embedding (default), bm25, or hybrid (RRF); src/index/first-stage.ts. */
    firstStage: FirstStageSchema,
  })
  .strict();
export type StrategyMethodOptions = z.output<typeof StrategyMethodOptionsSchema>;

export async function createStrategyMethod(
  opts: StrategyMethodOptions,
  context: Pick<MethodFactoryContext, 'id' | 'k'>,
): Promise<Method> {
  const where = `method ${context.id}`;
  const { name, options, firstStage } = opts;
  const strategy = await strategies.create(name, options, undefined, `${where}.options`);
  const method: Method = {
    capabilities: { output: 'units', ...(strategy.mode === 'llm' ? { llmRoles: ['strategy'] as const } : {}) },
    async memorise(index) {
      strategy.memorise?.(withFirstStage(index, firstStage));
    },
    async run(query, index, ctx) {
      const retrieval = await strategy.retrieve(query, withFirstStage(index, firstStage), context.k, ctx);
      // The route names the strategy so reports and `explain` show what ran, as for the adaptmr method.
      return { retrieval, route: strategy.name };
    },
  };
  const thresholdsFile =
    name === 'abstention' && typeof options.thresholdsFile === 'string' ? options.thresholdsFile : undefined;
  const calibrated = thresholdsFile
    ? Object.values(readThresholdsFile(thresholdsFile).embedders).flatMap((e) => e.calibrationQuestionIds)
    : [];
  return calibrated.length > 0 ? { ...method, excludedQuestionIds: new Set(calibrated) } : method;
}

/** The `strategy` entry of the method registry (src/run/methods/method-registry.ts). */
export const strategyMethodEntry = defineMethod({
  name: 'strategy',
  description:
    'one AdaptMR strategy (factual | temporal | update | multi-hop | abstention | unified) applied to every question',
  optionsSchema: StrategyMethodOptionsSchema,
  examples: [
    ...(['factual', 'temporal', 'update', 'multi-hop', 'abstention'] as const).flatMap((name) => [
      { label: `${name} offline`, options: { name, options: { mode: 'offline' } } },
      { label: `${name} llm`, options: { name, options: { mode: 'llm' } } },
    ]),
    { label: 'unified', options: { name: 'unified' } },
    { label: 'unified over bm25', options: { name: 'unified', firstStage: 'bm25' } },
    { label: 'factual over hybrid', options: { name: 'factual', firstStage: 'hybrid' } },
  ],
  create: (options, context) => createStrategyMethod(options, context),
});
