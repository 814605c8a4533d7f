/**
 * Sweep files (ablation grids): one base experiment and a list of variations, each a partial config deep-merged
 * onto the base. `expandSweep` turns a sweep into one validated ExperimentConfig per variation (pure: no I/O);
 * `loadSweep` reads the YAML (the base may be inline or the path of an experiment file, relative to the working directory like every
 * other path in a config).
 *
 *   name: exp4-ablations
 *   base: experiments/adaptmr-offline.yaml        # or an inline experiment config
 *   variations:
 *     - id: no-entity-rerank
 *       description: factual strategy without entity re-ranking
 *       set: { methods: { adaptmr-single: { options: { strategies: { factual: { entityWeight: 0 } } } } } }
 *
 * Merge rule: objects merge key by key, arrays and scalars replace. `set.methods` may also be an object keyed by
 * method id, which patches those methods of the base in place (an unknown id is an error), so a variation names
 * only what it changes. Each variation's config is named `<sweep>.<variation id>` unless its `set` names it, so
 * every variation is its own run with its own config hash.
 */
import { resolve } from 'node:path';
import { readYamlFile } from '../config/yaml-text.ts';
import { z } from 'zod';
import { InputError } from '../../core/errors.ts';
import { formatZodError } from '../../core/registry.ts';
import { deepMerge } from '../../core/dataset-methods.ts';
import { parseExperiment, type LoadedExperiment } from '../config/load-config.ts';

const IdSchema = z.string().regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, _ . -');

export const SweepVariationSchema = z
  .object({
    id: IdSchema,
    description: z.string().optional(),
    set: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type SweepVariation = z.infer<typeof SweepVariationSchema>;

export const SweepFileSchema = z
  .object({
    name: IdSchema,
    description: z.string().optional(),
    base: z.union([z.string(), z.record(z.string(), z.unknown())]),
    variations: z.array(SweepVariationSchema).nonempty(),
  })
  .strict();
export type SweepFile = z.infer<typeof SweepFileSchema>;

/** A sweep whose base is resolved to a config object. */
export interface ResolvedSweep {
  path: string;
  name: string;
  description?: string | undefined;
  base: Record<string, unknown>;
  variations: SweepVariation[];
}

/** One variation, ready to run. */
export interface SweepRun {
  variation: SweepVariation;
  experiment: LoadedExperiment;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export { deepMerge };

function patchMethods(methods: unknown, patch: Obj, where: string): unknown[] {
  if (!Array.isArray(methods))
    throw new InputError('set.methods patches by id, but the base has no methods list', where);
  const ids = methods.map((m) => (isObj(m) ? m.id : undefined));
  for (const id of Object.keys(patch)) {
    if (!ids.includes(id))
      throw new InputError(`set.methods: no method "${id}" in the base (has ${ids.join(', ')})`, where);
  }
  return methods.map((m) => (isObj(m) && typeof m.id === 'string' && m.id in patch ? deepMerge(m, patch[m.id]) : m));
}

/** The variation's config object: base ⊕ set, named `<sweep>.<id>` unless `set` names it. */
export function variationConfig(sweep: ResolvedSweep, v: SweepVariation): Obj {
  const where = `${sweep.path}: variation ${v.id}`;
  const { methods, ...rest } = v.set;
  let merged = deepMerge(sweep.base, rest) as Obj;
  if (methods !== undefined)
    merged = { ...merged, methods: isObj(methods) ? patchMethods(sweep.base.methods, methods, where) : methods };
  return { ...merged, name: typeof v.set.name === 'string' ? v.set.name : `${sweep.name}.${v.id}` };
}

/** Every variation as a validated experiment (schema errors name the sweep file and the variation). */
export function expandSweep(sweep: ResolvedSweep): SweepRun[] {
  const ids = sweep.variations.map((v) => v.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new InputError(`variations: id "${dup}" is used twice`, sweep.path);
  return sweep.variations.map((variation) => ({
    variation,
    // JSON is YAML, so the experiment parser validates the merged config exactly like an experiment file.
    experiment: parseExperiment(JSON.stringify(variationConfig(sweep, variation)), `${sweep.path}#${variation.id}`),
  }));
}

async function readYaml(path: string, what: string): Promise<unknown> {
  return readYamlFile(path, what);
}

/** Reads and validates a sweep file, resolving a base given as a path. */
export async function loadSweep(path: string): Promise<ResolvedSweep> {
  const raw = await readYaml(path, 'sweep file');
  const parsed = SweepFileSchema.safeParse(raw);
  if (!parsed.success) {
    // An experiment config given where a sweep file belongs: say so rather than list the sweep keys it lacks.
    const keys = raw !== null && typeof raw === 'object' ? Object.keys(raw) : [];
    if (keys.includes('methods') && keys.includes('datasets') && !keys.includes('base')) {
      throw new InputError(
        'is an experiment config, not a sweep file (no `base:`); run it with `adaptmr run`, or name it as the `base:` of a sweep file',
        path,
      );
    }
    throw new InputError(formatZodError(parsed.error), path);
  }
  const s = parsed.data;
  let base: Obj;
  if (typeof s.base === 'string') {
    const basePath = resolve(s.base);
    const loaded = await readYaml(basePath, 'sweep base experiment');
    if (!isObj(loaded)) throw new InputError('base experiment is not a YAML mapping', basePath);
    base = loaded;
  } else {
    base = s.base;
  }
  return { path, name: s.name, description: s.description, base, variations: s.variations };
}
