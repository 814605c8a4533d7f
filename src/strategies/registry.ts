/**
 * The strategy registry: `strategies.create(name, options)` validates the options with the strategy's strict zod
 * schema (a typo fails naming the field) and builds it. Names: the five AdaptMR strategies plus `unified` (the
 * ablation stand-in).
 */
import { Registry } from '../core/registry.ts';
import { AbstentionOptionsSchema, createAbstention } from './abstention.ts';
import { createFactual, FactualOptionsSchema } from './factual.ts';
import { createMultiHop, MultiHopOptionsSchema } from './multi-hop.ts';
import type { Strategy } from '../core/interfaces.ts';
import { createTemporal, TemporalOptionsSchema } from './temporal.ts';
import { createUnified, UnifiedOptionsSchema } from './unified.ts';
import { createUpdate, UpdateOptionsSchema } from './update.ts';

/** Every strategy with an LLM step runs in both modes in the conformance suite. */
const MODES = [
  { label: 'offline', options: { mode: 'offline' as const } },
  { label: 'llm', options: { mode: 'llm' as const } },
];

export const strategies = new Registry<Strategy>('strategy')
  .register({
    name: 'factual',
    examples: MODES,
    description: 'entity extraction + 2K semantic candidates reranked by entity overlap (plan §2.3 strategy 1)',
    optionsSchema: FactualOptionsSchema,
    create: (o) => createFactual(o),
  })
  .register({
    name: 'temporal',
    examples: MODES,
    description: 'time window filter / event comparison / semantic, dated and chronological (plan §2.3 strategy 2)',
    optionsSchema: TemporalOptionsSchema,
    create: (o) => createTemporal(o),
  })
  .register({
    name: 'update',
    examples: MODES,
    description: 'same-topic clusters resolved to the newest unit, annotated (plan §2.3 strategy 3)',
    optionsSchema: UpdateOptionsSchema,
    create: (o) => createUpdate(o),
  })
  .register({
    name: 'multi-hop',
    examples: MODES,
    description: 'decomposition, per-step retrieval with earlier findings, intermediate answers (plan §2.3 strategy 4)',
    optionsSchema: MultiHopOptionsSchema,
    create: (o) => createMultiHop(o),
  })
  .register({
    name: 'abstention',
    examples: MODES,
    description:
      'top-1 score against θ_high/θ_low with a relevance check between; explicit no-memory (plan §2.3 strategy 5)',
    optionsSchema: AbstentionOptionsSchema,
    create: (o) => createAbstention(o),
  })
  .register({
    name: 'unified',
    description: 'plain semantic top-K with dated context (ablation stand-in for any strategy)',
    optionsSchema: UnifiedOptionsSchema,
    create: () => createUnified(),
  })
  .freeze();
