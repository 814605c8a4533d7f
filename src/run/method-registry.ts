/**
 * The registry of every method an experiment can name: the baselines (baselines/) and the AdaptMR method
 * (src/routing). Configs refer to entries by name; options are checked against each entry's strict schema before
 * any work starts.
 */
import { Registry } from '../core/registry.ts';
import type { Method, MethodFactoryContext } from '../core/interfaces.ts';
import { bm25Entry, fullContextEntry, mem0Entry, unifiedEmbeddingEntry, zepEntry } from '../../baselines/index.ts';
import { adaptmrEntry } from '../routing/adaptmr-method.ts';
import { strategyMethodEntry } from '../routing/strategy-method.ts';

export const methods = new Registry<Method, MethodFactoryContext>('method')
  .register(bm25Entry)
  .register(unifiedEmbeddingEntry)
  .register(fullContextEntry)
  .register(mem0Entry)
  .register(zepEntry)
  .register(adaptmrEntry)
  .register(strategyMethodEntry)
  .freeze();
