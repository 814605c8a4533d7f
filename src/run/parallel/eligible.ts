/**
 * Whether a run's questions can be computed in worker threads, and by how many. Workers rebuild the methods from the
 * config and share nothing with the runner, so only pure computation qualifies: no LLM (one client, cache and rate
 * limit per run), no method that memorises or keeps checkpoints (they write the results file), and an embedder
 * without the embedding cache (one DuckDB file, one writer). Everything else runs in this process as before.
 */
import { availableParallelism } from 'node:os';
import type { ExperimentConfig } from '../../core/config.ts';
import { embedders } from '../../index/index.ts';
import type { ConfiguredMethod } from '../methods/create-methods.ts';

/** Below this many questions the workers' start-up (~0.1–0.3 s each) costs more than it saves. */
export const MIN_QUESTIONS_FOR_WORKERS = 64;

/** Why the questions cannot leave this process, or undefined when they can. */
export function workerObstacle(config: ExperimentConfig, methods: readonly ConfiguredMethod[]): string | undefined {
  if (config.llm || config.qa) return 'the experiment calls an LLM';
  for (const m of methods) {
    const c = m.impl.capabilities;
    if ((c.llmRoles?.length ?? 0) > 0) return `method ${m.id} calls an LLM`;
    if (c.memorises) return `method ${m.id} memorises haystacks`;
  }
  const embedderOptions = embedders.parseOptions(config.embedder.name, config.embedder.options);
  if (
    typeof embedderOptions === 'object' &&
    embedderOptions !== null &&
    'cache' in embedderOptions &&
    embedderOptions.cache === true
  ) {
    return `embedder ${config.embedder.name} uses the embedding cache`;
  }
  return undefined;
}

/**
 * Worker threads to use: `requested` when given (0 = none), else one per core (at most 4) when the run has enough
 * questions — one fewer when the runner's thread computes questions too (folder datasets, pool.ts), so the threads
 * computing match the cores; 0 whenever `workerObstacle` finds a reason.
 */
export function workerCount(
  config: ExperimentConfig,
  methods: readonly ConfiguredMethod[],
  questions: number,
  requested?: number,
  runnerComputes = false,
): number {
  if (requested === 0 || workerObstacle(config, methods) !== undefined) return 0;
  // A timing run: its questions must not share the cores with each other (one thread, as concurrency 1 asks).
  if ((config.timingRepeats ?? 1) > 1) return 0;
  if (requested !== undefined) return requested;
  const cores = Math.min(availableParallelism(), 4);
  if (cores < 2 || questions < MIN_QUESTIONS_FOR_WORKERS) return 0;
  return runnerComputes ? cores - 1 : cores;
}
