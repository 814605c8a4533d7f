// The registry's lazy entries (`registerLazy`): a module is imported only when its name is asked for, once even when
// asked for concurrently, a failed import is retried, and eager and lazy entries behave alike once loaded (names,
// options checked by the entry's schema, unknown names with a "did you mean").
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from './errors.ts';
import { defineEntry, formatZodError, Registry, type RegistryEntry } from './registry.ts';

const entry = (name: string): RegistryEntry<string> =>
  defineEntry({
    name,
    description: `the ${name} entry`,
    optionsSchema: z.object({ size: z.number().default(1) }).strict(),
    create: (o: { size: number }) => `${name}:${o.size}`,
  }) as RegistryEntry<string>;

function registry(opts: { failFirst?: boolean; wrongName?: boolean } = {}) {
  const loads: string[] = [];
  let failures = opts.failFirst ? 1 : 0;
  const lazy = (name: string) => async () => {
    loads.push(name);
    await new Promise((r) => setTimeout(r, 5));
    if (failures-- > 0) throw new Error('module not found');
    return entry(opts.wrongName ? `${name}-x` : name);
  };
  const r = new Registry<string>('thing')
    .register(entry('eager'))
    .registerLazy('lazy', lazy('lazy'))
    .registerLazy('other', lazy('other'))
    .freeze();
  return { r, loads };
}

describe('Registry with lazy entries', () => {
  it('imports a lazy entry only when it is asked for, once for concurrent requests', async () => {
    const { r, loads } = registry();
    expect(r.names()).toEqual(['eager', 'lazy', 'other']);
    expect(r.has('lazy')).toBe(true);
    expect(loads).toEqual([]);
    expect(() => r.get('lazy')).toThrow(/not loaded yet/);
    expect(() => r.get('lazy')).not.toThrow(InputError);
    const [a, b] = await Promise.all([r.load('lazy'), r.create('lazy', { size: 3 }, undefined)]);
    expect(a.name).toBe('lazy');
    expect(b).toBe('lazy:3');
    expect(loads).toEqual(['lazy']);
    expect(r.names()).toEqual(['eager', 'lazy', 'other']); // loaded entries are not listed twice
    expect(r.parseOptions('lazy', {})).toEqual({ size: 1 });
    expect(() => r.parseOptions('lazy', { sise: 2 }, 'methods.0')).toThrow(/sise/);
    expect(() => r.list()).toThrow(/"other" is not loaded yet/);
    await r.loadAll();
    expect(r.list().map((e) => e.name)).toEqual(['eager', 'lazy', 'other']);
    expect(loads).toEqual(['lazy', 'other']);
  });

  it('reports an unknown name as before, without importing anything', async () => {
    const { r, loads } = registry();
    await expect(r.load('lazzy', 'methods.2')).rejects.toThrow(/unknown thing "lazzy"\. Did you mean "lazy"\?/);
    await expect(r.create('lazzy', {}, undefined)).rejects.toBeInstanceOf(InputError);
    expect(() => r.get('nothing')).toThrow(InputError);
    expect(loads).toEqual([]);
  });

  it('retries an import that failed, and rejects a module whose entry has another name', async () => {
    const { r, loads } = registry({ failFirst: true });
    await expect(r.load('lazy')).rejects.toThrow(/module not found/);
    await expect(r.create('lazy', {}, undefined)).resolves.toBe('lazy:1');
    expect(loads).toEqual(['lazy', 'lazy']);
    const wrong = registry({ wrongName: true }).r;
    await expect(wrong.load('lazy')).rejects.toThrow(/thing "lazy" loaded the entry "lazy-x"/);
  });

  it('refuses a second entry of a name, eager or lazy, and any entry after freezing', () => {
    const r = new Registry<string>('thing').register(entry('a'));
    expect(() => r.registerLazy('a', async () => entry('a'))).toThrow(/registered twice/);
    r.registerLazy('b', async () => entry('b'));
    expect(() => r.register(entry('b'))).toThrow(/registered twice/);
    r.freeze();
    expect(() => r.registerLazy('c', async () => entry('c'))).toThrow(/frozen/);
  });
});

describe('formatZodError', () => {
  it('says a required key is missing and what it expects, and keeps other messages', () => {
    const schema = z.object({ model: z.string(), size: z.number() }).strict();
    const r = schema.safeParse({ size: 'big' });
    expect(r.success).toBe(false);
    expect(formatZodError(r.error!)).toBe(
      'model: missing (expected string); size: Invalid input: expected number, received string',
    );
  });
});
