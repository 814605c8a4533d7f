/**
 * Sweep files (plan experiment 4, ablations): a base experiment plus variations, each variation a patch of the
 * base. `expandSweep` turns one into plain experiment configs — a pure function, so a sharded runner can expand the
 * same file and run any subset of the variations (issue 13). Format:
 *
 *   sweep: { name: exp4-ablations, reference: adaptmr }   # reference: method id every variation is compared with
 *   base: { …an experiment config… }                       # runs as the variation `base` (run name = base.name)
 *   variations:
 *     - id: no-classifier
 *       description: w/o classifier (random strategy)
 *       set: { methods: { adaptmr: { options: { classifier: random } } } }
 *
 * `set` is merged into the base: objects key by key (recursively), arrays and scalars replaced; `methods` may be
 * an object keyed by method id, which patches those methods of the base's list (unknown ids fail). Each
 * variation's config is named `<base.name>.<id>`, and its `stats` compare its methods with the base run's
 * reference method (`stats.referenceRun`), so the comparisons table holds each ablation's delta vs the full method.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import { formatZodError } from '../core/registry.ts';
import { loadedFromValue, type LoadedExperiment } from './load-config.ts';

export const SweepFileSchema = z
  .object({
    sweep: z.object({
      /** Method id of the base run every variation is compared with (default: the base's stats.reference). */
      reference: z.string().optional(),
      description: z.string().optional(),
    }).strict().prefault({}),
    base: z.record(z.string(), z.unknown()),
    variations: z.array(z.object({
      id: z.string().regex(/^[A-Za-z0-9_-]+$/, 'use letters, digits, _ -'),
      description: z.string().optional(),
      set: z.record(z.string(), z.unknown()).default({}),
    }).strict()).nonempty(),
  })
  .strict();
export type SweepFile = z.infer<typeof SweepFileSchema>;

/** True for a YAML document that is a sweep (has `base` and `variations`) rather than a single experiment. */
export function isSweepDocument(doc: unknown): boolean {
  return typeof doc === 'object' && doc !== null && 'base' in doc && 'variations' in doc;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(base: unknown, patch: unknown, where: string): unknown {
  if (!isObject(patch) || !isObject(base)) return structuredClone(patch);
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'methods' && Array.isArray(base.methods) && isObject(value)) {
      const list = (base.methods as unknown[]).map((m) => structuredClone(m));
      for (const [id, methodPatch] of Object.entries(value)) {
        const at = list.findIndex((m) => isObject(m) && m.id === id);
        if (at < 0) throw new InputError(`no method "${id}" in the base to patch`, `${where}.methods`);
        list[at] = merge(list[at], methodPatch, `${where}.methods.${id}`);
      }
      out.methods = list;
    } else {
      out[key] = merge(base[key], value, `${where}.${key}`);
    }
  }
  return out;
}

/** One config value per run: the base (id `base`) first, then each variation. Not yet validated. */
export function expandSweepValues(file: SweepFile): { id: string; description?: string; config: Json }[] {
  const baseName = typeof file.base.name === 'string' ? file.base.name : 'sweep';
  const baseStats = isObject(file.base.stats) ? file.base.stats : {};
  const reference = file.sweep.reference ?? (typeof baseStats.reference === 'string' ? baseStats.reference : undefined);
  const base = { ...file.base, stats: { ...baseStats, ...(reference ? { reference } : {}) } };
  const seen = new Set<string>(['base']);
  const out: { id: string; description?: string; config: Json }[] = [{ id: 'base', config: base }];
  for (const v of file.variations) {
    if (seen.has(v.id)) throw new InputError(`variation id "${v.id}" is used twice`, 'variations');
    seen.add(v.id);
    const merged = merge(base, v.set, `variations.${v.id}.set`) as Json;
    const stats = isObject(merged.stats) ? merged.stats : {};
    out.push({
      id: v.id,
      ...(v.description ? { description: v.description } : {}),
      config: { ...merged, name: `${baseName}.${v.id}`, stats: { ...stats, referenceRun: baseName }, ...(v.description ? { description: v.description } : {}) },
    });
  }
  return out;
}

/** The sweep's experiments, each validated like a file of its own (errors name the variation). */
export function expandSweep(file: SweepFile, path = 'sweep'): LoadedExperiment[] {
  return expandSweepValues(file).map((v) => loadedFromValue(v.config, `${path} (variation ${v.id})`));
}

/** Parses a sweep document (already read from YAML). */
export function parseSweep(doc: unknown, path: string): SweepFile {
  const parsed = SweepFileSchema.safeParse(doc);
  if (!parsed.success) throw new InputError(formatZodError(parsed.error), path);
  return parsed.data;
}
