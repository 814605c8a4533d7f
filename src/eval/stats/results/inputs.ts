/**
 * The inputs of a results file's statistics as plain rows (what the store loads, what tests build by hand): one
 * counted score per question, and per run its resolved statistics settings. Also the rule deciding what a
 * bootstrap resamples: whole conversations for datasets whose questions share one (LoCoMo's query ids are
 * `<sample_id>:q<i>`, benchmarks/locomo/load.ts), single questions otherwise (every LongMemEval question has its own
 * haystack).
 */
import { STATS_DEFAULTS, type StatsConfig } from '../../../core/stats-config.ts';
import type { CiMethod } from '../bootstrap.ts';
import type { ContinuousTest } from '../paired.ts';

export interface ScoreInput {
  runId: string;
  dataset: string;
  questionId: string;
  method: string;
  granularity: string;
  level: string;
  metric: string;
  k: number | null;
  value: number;
  adaptType: string;
  nativeType: string;
}

export type Bootstrap = 'question' | 'conversation';

/** One run's statistics settings, resolved (defaults filled). */
export interface RunStats {
  runId: string;
  runName: string;
  resamples: number;
  seed: number;
  ci: CiMethod;
  alpha: number;
  cluster: 'auto' | Bootstrap;
  family: 'metric-type' | 'metric';
  continuousTest: ContinuousTest;
  /** The method every other method of the run is compared with, and the run it is taken from. */
  reference: { runId: string; method: string } | null;
  /** Methods of the run in config order. */
  methods: string[];
  metrics: string[] | null;
}

export interface RunConfigLike {
  name: string;
  seed: number;
  methods: { id: string; method: string }[];
  stats?: StatsConfig | undefined;
}

/**
 * Resolves a run's settings. `runIdOfName` finds another run of the file by its name (for `referenceRun`); a
 * missing reference run or method leaves the run without comparisons rather than failing the whole file.
 */
export function resolveRunStats(
  runId: string,
  config: RunConfigLike,
  runIdOfName: (name: string) => string | undefined,
): RunStats {
  const s = config.stats;
  const methods = config.methods.map((m) => m.id);
  const refMethod = s?.reference ?? config.methods.find((m) => m.method === 'unified-embedding')?.id ?? methods[0];
  const refRun = s?.referenceRun ? runIdOfName(s.referenceRun) : runId;
  return {
    runId,
    runName: config.name,
    resamples: s?.resamples ?? STATS_DEFAULTS.resamples,
    seed: s?.seed ?? config.seed,
    ci: s?.ci ?? STATS_DEFAULTS.ci,
    alpha: 1 - (s?.confidence ?? STATS_DEFAULTS.confidence),
    cluster: s?.cluster ?? STATS_DEFAULTS.cluster,
    family: s?.family ?? STATS_DEFAULTS.family,
    continuousTest: s?.continuousTest ?? STATS_DEFAULTS.continuousTest,
    reference: refMethod !== undefined && refRun !== undefined ? { runId: refRun, method: refMethod } : null,
    methods,
    metrics: s?.metrics ?? null,
  };
}

const CONVERSATION_ID = /^(.+):q\d+$/;

/** Conversation of a LoCoMo-style question id, or undefined. */
export function conversationOf(questionId: string): string | undefined {
  return CONVERSATION_ID.exec(questionId)?.[1];
}

/**
 * What one dataset's bootstraps resample: `auto` picks conversations when every question id names one and some
 * conversation has several questions.
 */
export function bootstrapFor(questionIds: Iterable<string>, mode: RunStats['cluster']): Bootstrap {
  if (mode !== 'auto') return mode;
  const seen = new Set<string>();
  let n = 0;
  for (const id of questionIds) {
    const c = conversationOf(id);
    if (c === undefined) return 'question';
    seen.add(c);
    n++;
  }
  return n > 0 && seen.size < n ? 'conversation' : 'question';
}

/** Cluster labels for the sorted ids (conversation mode) or undefined (one question per unit). */
export function clusterLabels(ids: readonly string[], bootstrap: Bootstrap): string[] | undefined {
  return bootstrap === 'conversation' ? ids.map((id) => conversationOf(id) ?? id) : undefined;
}

export const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
