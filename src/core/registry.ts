/**
 * A registry of named components (methods, embedders, classifiers, strategies). Each entry is defined with
 * `defineEntry`: a strict zod schema for its options and a factory typed by that schema's output, so a factory never
 * casts or re-parses. The registry parses options once and reports errors one way (`formatZodError`, naming the
 * field and where it was configured); an unknown name fails before any work with a "did you mean …" hint (the
 * lm-evaluation-harness style). Registries are frozen after start-up so nothing registers behind a run's back.
 */
import type { z } from 'zod';
import { InputError } from './errors.ts';

/**
 * A configuration of an entry that its interface's conformance suite runs (and docs may show). Without examples the
 * suite runs the entry with empty options. `exempt` names a conformance check the entry does not meet by design,
 * with the reason (e.g. full context ignores k); `skip` leaves the example out with a reason. `fixtures` names files
 * the suite makes at test time (a trained model, say) and puts into options: option name → fixture name; each suite
 * keeps the table of fixtures it can build (a component cannot depend on the tools that make its files).
 */
export interface EntryExample<O = unknown> {
  label: string;
  options: O;
  exempt?: Partial<Record<string, string>>;
  skip?: string;
  fixtures?: Partial<Record<string, string>>;
}

export interface RegistryEntry<T, C = unknown, S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  optionsSchema: S;
  examples?: readonly EntryExample<z.input<S>>[];
  // Method syntax on purpose: a typed entry is assignable to the registry's erased entry type.
  create(options: z.output<S>, context: C): T | Promise<T>;
}

/** Identity helper that ties `create`'s options type to the entry's schema. */
export function defineEntry<T, C, S extends z.ZodType>(entry: RegistryEntry<T, C, S>): RegistryEntry<T, C, S> {
  return entry;
}

/**
 * Named entries, each registered as it is or as a loader (`registerLazy`): the module of a lazy entry — its schema,
 * its implementation and what they import — is loaded only when something asks for it by name (`load`, `create`),
 * so a run loads the methods its config names and no others. Its name is known from the start, for "did you mean".
 */
export class Registry<T, C = unknown> {
  private readonly entries = new Map<string, RegistryEntry<T, C>>();
  private readonly loaders = new Map<string, () => Promise<RegistryEntry<T, C>>>();
  /** Imports under way (a settled one is forgotten: its entry is in `entries`, or the next `load` retries). */
  private readonly loading = new Map<string, Promise<RegistryEntry<T, C>>>();
  private frozen = false;

  constructor(readonly kind: string) {}

  register<S extends z.ZodType>(entry: RegistryEntry<T, C, S>): this {
    this.claim(entry.name);
    this.entries.set(entry.name, entry);
    return this;
  }

  /** An entry whose module is imported on first use; `load` checks it is the entry of that name. */
  registerLazy<S extends z.ZodType>(name: string, load: () => Promise<RegistryEntry<T, C, S>>): this {
    this.claim(name);
    this.loaders.set(name, load);
    return this;
  }

  private claim(name: string): void {
    if (this.frozen) throw new Error(`${this.kind} registry is frozen; register "${name}" at start-up`);
    if (this.entries.has(name) || this.loaders.has(name)) throw new Error(`${this.kind} "${name}" registered twice`);
  }

  /** No more entries after this; returns the registry for chaining at module level. */
  freeze(): this {
    this.frozen = true;
    return this;
  }

  names(): string[] {
    return [...new Set([...this.entries.keys(), ...this.loaders.keys()])].sort();
  }

  has(name: string): boolean {
    return this.entries.has(name) || this.loaders.has(name);
  }

  /** The entry of `name`, its module imported first if it is lazy; an unknown name is an InputError. */
  async load(name: string, where?: string): Promise<RegistryEntry<T, C>> {
    const entry = this.entries.get(name);
    if (entry) return entry;
    const load = this.loaders.get(name);
    if (!load) throw new InputError(unknownName(this.kind, name, this.names()), where);
    let pending = this.loading.get(name);
    if (!pending) {
      pending = load().then((e) => {
        if (e.name !== name) throw new Error(`${this.kind} "${name}" loaded the entry "${e.name}"`);
        this.entries.set(name, e);
        return e;
      });
      this.loading.set(name, pending);
      const settled = (): void => void this.loading.delete(name);
      pending.then(settled, settled);
    }
    return pending;
  }

  /** Loads every lazy entry (for what describes them all: the JSON Schema, the conformance suites). */
  async loadAll(): Promise<void> {
    for (const name of this.loaders.keys()) await this.load(name);
  }

  /** Every entry in name order (the JSON Schema generator describes each entry's options); after `loadAll`. */
  list(): RegistryEntry<T, C>[] {
    return this.names().map((n) => this.get(n));
  }

  /** A registered entry, synchronously: a lazy one must have been loaded (`load`) before. */
  get(name: string, where?: string): RegistryEntry<T, C> {
    const entry = this.entries.get(name);
    if (entry) return entry;
    if (this.loaders.has(name))
      throw new Error(`${this.kind} "${name}" is not loaded yet: await load("${name}") first`);
    throw new InputError(unknownName(this.kind, name, this.names()), where);
  }

  /** Validates options against the entry's schema (naming the field) before creating anything. */
  parseOptions(name: string, options: unknown, where?: string): unknown {
    const entry = this.get(name, where);
    return parseWith(entry.optionsSchema, options ?? {}, where);
  }

  async create(name: string, options: unknown, context: C, where?: string): Promise<T> {
    await this.load(name, where);
    const parsed = this.parseOptions(name, options, where);
    return this.get(name, where).create(parsed, context);
  }
}

/** Parses with a schema and turns a failure into the one-line InputError every component reports. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where?: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InputError(formatZodError(parsed.error), where);
  return parsed.data;
}

export function unknownName(kind: string, name: string, known: string[]): string {
  const best = known.map((k) => ({ k, d: levenshtein(name, k) })).sort((a, b) => a.d - b.d)[0];
  const hint = best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? ` Did you mean "${best.k}"?` : '';
  return `unknown ${kind} "${name}".${hint} Known: ${known.join(', ') || '(none)'}`;
}

/** Edit distance for "did you mean" hints; inputs are short names, so the O(n·m) table is fine. */
export function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** One line per issue, each naming the field path, e.g. `methods.0.k: expected number, received string`. */
export function formatZodError(error: z.ZodError): string {
  return leafIssues(error.issues, [])
    .map((i) => {
      const path = i.path.length ? i.path.join('.') : '(top level)';
      return `${path}: ${i.message}`;
    })
    .join('; ');
}

type Issue = z.core.$ZodIssue;

/** How badly a union branch fails to fit: a missing required key or an unknown key says "not this shape". */
function misfit(issues: readonly Issue[]): number {
  return issues.reduce((n, i) => n + (i.code === 'unrecognized_keys' || missingKey(i) ? 10 : 1), 0);
}

/**
 * The issues to show: a union's bare "Invalid input" is replaced by the issues of the branch the value fits best
 * (e.g. a dataset entry with `path:` is reported against the custom-file shape, naming the field that is wrong),
 * with paths made absolute.
 */
function leafIssues(issues: readonly Issue[], prefix: PropertyKey[]): { path: PropertyKey[]; message: string }[] {
  return issues.flatMap((i) => {
    const path = [...prefix, ...i.path];
    if (i.code === 'invalid_union' && i.errors.length > 0) {
      const best = [...i.errors].sort((a, b) => misfit(a) - misfit(b))[0]!;
      return leafIssues(best, path);
    }
    return [{ path, message: missingKey(i) ? `missing (expected ${i.expected})` : i.message }];
  });
}

/** A required key that is absent: zod words it "Invalid input: expected string, received undefined". */
function missingKey(i: Issue): i is Issue & { code: 'invalid_type'; expected: string } {
  return i.code === 'invalid_type' && /received undefined/u.test(i.message);
}
