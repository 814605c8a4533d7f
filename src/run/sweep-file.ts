/**
 * Sweep files (ablation grids), in the format of the statistics work's src/run/sweep.ts (experiment 4) — same
 * names and semantics, so the two reconcile by deleting this file and importing from there:
 *
 *   sweep: { reference: adaptmr, description: … }   # optional
 *   base: { name: exp4-ablations, …an experiment config… }   # runs as the variation `base` (run name = base.name)
 *   variations:
 *     - id: no-classifier
 *       description: w/o classifier (random strategy)
 *       set: { methods: { adaptmr: { options: { classifier: random } } } }
 *
 * `set` is merged into the base: objects key by key (recursively), arrays and scalars replaced; `methods` may be
 * an object keyed by method id, which patches those methods of the base's list (unknown ids fail). Each
 * variation's config is named `<base.name>.<id>`. `expandSweepValues` is pure; `loadSweep` reads the YAML.
 */
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { InputError, errorMessage } from '../core/errors.ts';
import { formatZodError } from '../core/registry.ts';
import { parseExperiment, type LoadedExperiment } from './load-config.ts';

export const SweepFileSchema = z
  .object({
    sweep: z.object({
      /** Method id every variation is compared with. */
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

/** The sweep's name: its base experiment's name. */
export function sweepName(file: SweepFile): string {
  return typeof file.base.name === 'string' ? file.base.name : 'sweep';
}

/** One config value per run: the base (id `base`) first, then each variation. Not yet validated. */
export function expandSweepValues(file: SweepFile): { id: string; description?: string; config: Json }[] {
  const baseName = sweepName(file);
  const seen = new Set<string>(['base']);
  const out: { id: string; description?: string; config: Json }[] = [{ id: 'base', config: file.base }];
  for (const v of file.variations) {
    if (seen.has(v.id)) throw new InputError(`variation id "${v.id}" is used twice`, 'variations');
    seen.add(v.id);
    const merged = merge(file.base, v.set, `variations.${v.id}.set`) as Json;
    out.push({
      id: v.id,
      ...(v.description ? { description: v.description } : {}),
      config: { ...merged, name: `${baseName}.${v.id}`, ...(v.description ? { description: v.description } : {}) },
    });
  }
  return out;
}

/** The sweep's experiments with their variation ids, each validated like a file of its own. */
export function expandSweepRuns(file: SweepFile, path = 'sweep'): { id: string; experiment: LoadedExperiment }[] {
  // JSON is YAML, so the experiment parser validates the merged config exactly like an experiment file.
  return expandSweepValues(file).map((v) => ({ id: v.id, experiment: parseExperiment(JSON.stringify(v.config), `${path} (variation ${v.id})`) }));
}

/** The sweep's experiments (base first), each validated like a file of its own (errors name the variation). */
export function expandSweep(file: SweepFile, path = 'sweep'): LoadedExperiment[] {
  return expandSweepRuns(file, path).map((r) => r.experiment);
}

/** Parses a sweep document (already read from YAML). */
export function parseSweep(doc: unknown, path: string): SweepFile {
  const parsed = SweepFileSchema.safeParse(doc);
  if (!parsed.success) throw new InputError(formatZodError(parsed.error), path);
  return parsed.data;
}

/** Reads and validates a sweep file. */
export async function loadSweep(path: string): Promise<SweepFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read sweep file (${errorMessage(err)})`, path);
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) throw new InputError(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`, path);
  const value: unknown = doc.toJS();
  if (!isSweepDocument(value)) throw new InputError('not a sweep file (needs `base` and `variations`); run a single experiment with `adaptmr run`', path);
  return parseSweep(value, path);
}
