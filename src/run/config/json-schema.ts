/**
 * The JSON Schema of experiment files, generated from the zod schemas (zod 4's `toJSONSchema`), for editors. Beyond
 * the experiment schema itself, every component's `options` are described by its registry entry's own schema, as a
 * union discriminated by the component's name (`if: { method: const } then: { options: … }`): each method, the
 * embedder, the `strategy` method's strategy, and the adaptmr method's classifier and per-type strategies. A new
 * entry appears here by registering.
 */
import { z } from 'zod';
import { classifiers } from '../../classify/registry.ts';
import { ExperimentConfigSchema } from '../../core/config.ts';
import { datasetNames, pathFormats } from '../../core/benchmarks-installed.ts';
import type { Registry } from '../../core/registry.ts';
import { ADAPT_TYPES } from '../../core/types.ts';
import { embedders } from '../../index/embedders/registry.ts';
import { strategies } from '../../strategies/registry.ts';
import { methods } from '../methods/method-registry.ts';
import { installBenchmarks } from '../benchmark-registry.ts';

type Json = Record<string, unknown>;

function toJson(schema: z.ZodType): Json {
  // `input` describes what a user writes (defaults optional), not the resolved config.
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

/** `if name = X then options match X's schema`, one branch per entry. */
function byName<T, C>(
  registry: Registry<T, C>,
  nameKey: string,
  optionsKey: string,
  refine?: (name: string, options: Json) => Json,
): Json[] {
  return registry.list().map((entry) => {
    const options = toJson(entry.optionsSchema);
    return {
      if: { properties: { [nameKey]: { const: entry.name } }, required: [nameKey] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
      then: { properties: { [optionsKey]: refine ? refine(entry.name, options) : options } },
    };
  });
}

function withAllOf(schema: Json, branches: Json[]): Json {
  return { ...schema, allOf: [...((schema.allOf as Json[] | undefined) ?? []), ...branches] };
}

/** The adaptmr options with its classifier and per-type strategy options described; the strategy method's options
 * with the chosen strategy's options described. */
function refineMethodOptions(name: string, options: Json): Json {
  const props = (options.properties ?? {}) as Record<string, Json>;
  if (name === 'strategy') return withAllOf(options, byName(strategies, 'name', 'options'));
  if (name !== 'adaptmr') return options;
  const classifier = props.classifier;
  const variants = (classifier?.anyOf as Json[] | undefined)?.map((v) =>
    v.type === 'object' ? withAllOf(v, byName(classifiers, 'name', 'options')) : v,
  );
  const strategyProps = (props.strategies?.properties ?? {}) as Record<string, Json>;
  const typed = Object.fromEntries(
    ADAPT_TYPES.map((t) => [
      t,
      strategies.has(t)
        ? { ...(strategyProps[t] ?? {}), ...toJson(strategies.get(t).optionsSchema) }
        : strategyProps[t],
    ]),
  );
  return {
    ...options,
    properties: {
      ...props,
      ...(classifier && variants ? { classifier: { ...classifier, anyOf: variants } } : {}),
      ...(props.strategies ? { strategies: { ...props.strategies, properties: typed } } : {}),
    },
  };
}

/**
 * The dataset names and path formats the installed benchmarks accept, as enums for editors (the zod schema checks
 * them against the benchmark registry at load, with "did you mean", so it has no enum of its own): a dataset entry
 * with a `format` is a path entry, one without is a named dataset.
 */
function withDatasetNames(datasets: Json): Json {
  const items = datasets.items as Json;
  const branches = (items.anyOf as Json[] | undefined) ?? [];
  const named = (branch: Json): Json => {
    const props = { ...(branch.properties as Record<string, Json>) };
    if (props.format) props.format = { ...props.format, enum: pathFormats() };
    else if (props.name) props.name = { ...props.name, enum: datasetNames() };
    return { ...branch, properties: props };
  };
  return { ...datasets, items: { ...items, anyOf: branches.map(named) } };
}

/** The JSON Schema of experiment files; every method's entry is loaded first (their options are described). */
export async function experimentJsonSchema(): Promise<Record<string, unknown>> {
  await methods.loadAll();
  await installBenchmarks();
  const base = z.toJSONSchema(ExperimentConfigSchema, { io: 'input', unrepresentable: 'any' }) as Json;
  const props = base.properties as Record<string, Json>;
  const methodsProp = props.methods!;
  const item = methodsProp.items as Json;
  return {
    ...base,
    properties: {
      ...props,
      methods: { ...methodsProp, items: withAllOf(item, byName(methods, 'method', 'options', refineMethodOptions)) },
      embedder: withAllOf(props.embedder!, byName(embedders, 'name', 'options')),
      datasets: withDatasetNames(props.datasets!),
    },
    title: 'AdaptMR Bench experiment',
    $id: 'experiment.schema.json',
  };
}
