/**
 * A registry of named components (methods, embedders, classifiers, strategies). Each entry declares a strict zod
 * schema for its options and a factory; configs name entries, and an unknown name fails before any work with a
 * "did you mean …" hint (the lm-evaluation-harness style).
 */
import { z } from 'zod';
import { InputError } from './errors.ts';

export interface RegistryEntry<T, C = unknown> {
  name: string;
  description: string;
  optionsSchema: z.ZodType;
  create(options: unknown, context: C): T | Promise<T>;
}

export class Registry<T, C = unknown> {
  private readonly entries = new Map<string, RegistryEntry<T, C>>();

  constructor(readonly kind: string) {}

  register(entry: RegistryEntry<T, C>): this {
    if (this.entries.has(entry.name)) throw new Error(`${this.kind} "${entry.name}" registered twice`);
    this.entries.set(entry.name, entry);
    return this;
  }

  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  get(name: string, where?: string): RegistryEntry<T, C> {
    const entry = this.entries.get(name);
    if (!entry) throw new InputError(unknownName(this.kind, name, this.names()), where);
    return entry;
  }

  /** Validates options against the entry's schema (naming the field) before creating anything. */
  parseOptions(name: string, options: unknown, where?: string): unknown {
    const entry = this.get(name, where);
    const parsed = entry.optionsSchema.safeParse(options ?? {});
    if (!parsed.success) throw new InputError(formatZodError(parsed.error), where);
    return parsed.data;
  }

  async create(name: string, options: unknown, context: C, where?: string): Promise<T> {
    const parsed = this.parseOptions(name, options, where);
    return this.get(name, where).create(parsed, context);
  }
}

export function unknownName(kind: string, name: string, known: string[]): string {
  const best = known
    .map((k) => ({ k, d: levenshtein(name, k) }))
    .sort((a, b) => a.d - b.d)[0];
  const hint = best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? ` Did you mean "${best.k}"?` : '';
  return `unknown ${kind} "${name}".${hint} Known: ${known.join(', ') || '(none)'}`;
}

/** Edit distance for "did you mean" hints; inputs are short names, so the O(n·m) table is fine. */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** One line per issue, each naming the field path, e.g. `methods.0.k: expected number, received string`. */
export function formatZodError(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.length ? i.path.join('.') : '(top level)';
      return `${path}: ${i.message}`;
    })
    .join('; ');
}
