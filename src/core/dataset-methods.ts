/**
 * Per-dataset method settings (a dataset entry's `index` and `methods`, src/core/config.ts): the methods one
 * dataset of an experiment runs with. One run can so compare methods on LongMemEval S as sessions and on LoCoMo as
 * speaker-prefixed turns, each with the abstention thresholds calibrated on that dataset and a classifier model
 * never trained on its questions. Pure; the runner builds one set of methods per distinct result.
 *
 * Merge rule (the same as sweep variations, src/run/sweep/sweep-file.ts): objects merge key by key, arrays and scalars
 * replace. The dataset's `index` applies to every method first, then `methods.<id>.index` and `.options`.
 */
import { MethodConfigSchema, type DatasetRef, type ExperimentConfig, type MethodConfig } from './config.ts';
import { InputError } from './errors.ts';
import { formatZodError } from './registry.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Objects merge key by key; arrays and scalars in the patch replace. */
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isObj(base) || !isObj(patch)) return patch;
  const out: Obj = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = key in out ? deepMerge(out[key], value) : value;
  return out;
}

/** Whether a dataset entry changes any method. */
export function hasMethodPatch(ref: DatasetRef): boolean {
  return ref.index !== undefined || (ref.methods !== undefined && Object.keys(ref.methods).length > 0);
}

/**
 * The experiment's methods on dataset `datasets[i]`, validated like the config's own (an unknown method id or a bad
 * index field names the file, the dataset entry and the method).
 */
export function methodsForDataset(config: ExperimentConfig, i: number, path: string): MethodConfig[] {
  const ref = config.datasets[i];
  if (!ref) throw new InputError(`no dataset entry ${i}`, path);
  const where = `${path}: datasets.${i} (${ref.name ?? ('path' in ref ? ref.path : '')})`;
  // A replicated method (`replicates: n`, src/run/config/replicates.ts) is patched by its own id, which names every replicate.
  const baseOf = (m: MethodConfig): string => (m.replicate !== undefined ? m.id.replace(/:r[0-9]+$/, '') : m.id);
  const ids = [...new Set(config.methods.flatMap((m) => [m.id, baseOf(m)]))];
  for (const id of Object.keys(ref.methods ?? {})) {
    if (!ids.includes(id))
      throw new InputError(`methods: no method "${id}" in the experiment (has ${ids.join(', ')})`, where);
  }
  if (!hasMethodPatch(ref)) return config.methods;
  return config.methods.map((m) => {
    const patch = ref.methods?.[m.id] ?? ref.methods?.[baseOf(m)];
    const index = deepMerge(deepMerge(m.index, ref.index ?? {}), patch?.index ?? {});
    const options = patch?.options ? deepMerge(m.options, patch.options) : m.options;
    const parsed = MethodConfigSchema.safeParse({ ...m, index, options });
    if (!parsed.success) throw new InputError(formatZodError(parsed.error), `${where}: methods.${m.id}`);
    return parsed.data;
  });
}

/** The config as one dataset sees it: its methods patched, every other setting the experiment's. */
export function configForDataset(config: ExperimentConfig, i: number, path: string): ExperimentConfig {
  const methods = methodsForDataset(config, i, path);
  return methods === config.methods ? config : { ...config, methods: methods as ExperimentConfig['methods'] };
}
