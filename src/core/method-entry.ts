/**
 * How a method is registered: `defineMethod({ name, description, optionsSchema, create(options, ctx) })`, with
 * `options` typed by the schema (parsed once by the registry) and `ctx` the runner's MethodFactoryContext. The one
 * registry that lists every method is src/run/methods/method-registry.ts.
 */
import type { z } from 'zod';
import type { Method, MethodFactoryContext } from './interfaces.ts';
import type { RegistryEntry } from './registry.ts';

export type MethodEntry<S extends z.ZodType = z.ZodType> = RegistryEntry<Method, MethodFactoryContext, S>;

export function defineMethod<S extends z.ZodType>(entry: MethodEntry<S>): MethodEntry<S> {
  return entry;
}
