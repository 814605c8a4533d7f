/**
 * Case studies: every method of an experiment config on one question, through the runner's own pieces —
 * `createMethods` (the method registry, options checked), `IndexCache` (the same index per spec) and `runMethod`
 * (the same query object without gold, the same ctx seed, the oracle type only for methods declaring the `oracleType` capability, the
 * same scoring). Per method it keeps what the method produced: predicted type + probabilities, route, ranked units,
 * notes, no-memory flag and the exact context the reader would get. The gold is returned apart, with the scores the
 * runner would store; nothing of it reaches a method except the oracle type, as in a run. No QA is run.
 */
import type { ExperimentConfig } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import type { Embedder } from '../../core/interfaces.ts';
import type { Gold, Instance } from '../../core/types.ts';
import { loadDataset, readCatalog, resolveDataDir, resolveDataset, type DatasetSource } from '../../data/index.ts';
import { embedders, openEmbeddingCache } from '../../index/index.ts';
import { createLlmProvider } from '../../llm/provider.ts';
import { IndexCache } from '../../run/index-cache.ts';
import type { LoadedExperiment } from '../../run/config/load-config.ts';
import { emptyBatch, runMethod } from '../../run/question.ts';
import { configForDataset } from '../../core/dataset-methods.ts';
import { createMethods } from '../../run/methods/create-methods.ts';

export const PREVIEW_CHARS = 100;

export interface ExplainedUnit {
  rank: number;
  id: string;
  sessionId: string;
  date: string;
  score: number;
  /** First ~100 characters of the unit text, whitespace collapsed. */
  preview: string;
}

export interface ExplainedMethod {
  method: string;
  /** True when the runner handed this method the gold type (oracle router: gold-type routing). */
  gotOracleType: boolean;
  /** Why the method is a stand-in (`offline`), shown after its id; null for the real system. */
  degraded: string | null;
  predictedType: string | null;
  typeProbs: Record<string, number> | null;
  route: string | null;
  noMemory: boolean;
  units: ExplainedUnit[];
  /** The method's notes as stored (JSON-like). */
  notes: unknown;
  context: string | null;
  latencyMs: number;
  error: string | null;
}

export interface ExplainResult {
  experiment: string;
  dataset: string;
  question: { id: string; text: string; askedAt: string };
  methods: ExplainedMethod[];
  /** Everything gold, kept apart: labels, evidence, answer, and each method's retrieval scores (the run's rows). */
  gold: Gold & {
    scores: { method: string; level: string; metric: string; k: number | null; value: number; counted: boolean }[];
    /** Rank (1-based) of each evidence session in each method's list; absent = not retrieved. */
    evidenceRanks: Record<string, Record<string, number>>;
  };
}

export interface ExplainOptions {
  questionId: string;
  /** Only these method ids of the experiment (all when absent); an unknown id is refused with the file's ids. */
  methods?: readonly string[] | undefined;
  /** Restrict the search to this dataset of the config (name as in the results). */
  dataset?: string | undefined;
  dataDir?: string | undefined;
}

/** Finds the question in the config's datasets (whole datasets: sample / limit do not apply to a case study). */
async function findInstance(
  config: ExperimentConfig,
  o: ExplainOptions,
  path: string,
): Promise<{ instance: Instance; source: DatasetSource; datasetIndex: number }> {
  const dataDir = resolveDataDir({ flag: o.dataDir, config: config.dataDir });
  const found: { instance: Instance; source: DatasetSource; datasetIndex: number }[] = [];
  for (const [datasetIndex, ref] of config.datasets.entries()) {
    const source = resolveDataset(ref, dataDir);
    if (o.dataset && source.name !== o.dataset) continue;
    const catalog = await readCatalog(source);
    if (!catalog.some((c) => c.questionId === o.questionId)) continue;
    const { sample: _sample, limit: _limit, questionIds: _ids, index: _index, methods: _methods, ...rest } = ref;
    const { instances } = await loadDataset({ ...rest, questionIds: [o.questionId] }, dataDir);
    const instance = instances[0];
    if (instance) found.push({ instance, source, datasetIndex });
  }
  if (o.dataset && !config.datasets.some((r) => resolveDataset(r, dataDir).name === o.dataset)) {
    throw new InputError(
      `dataset "${o.dataset}" is not in the experiment (${config.datasets.map((r) => r.name ?? ('path' in r ? r.path : '')).join(', ')})`,
      path,
    );
  }
  if (found.length === 0)
    throw new InputError(
      `question "${o.questionId}" is in none of the experiment's datasets${o.dataset ? ` (looked in ${o.dataset})` : ''}`,
      path,
    );
  if (found.length > 1)
    throw new InputError(
      `question "${o.questionId}" is in several datasets (${found.map((f) => f.source.name).join(', ')}); choose one with --dataset`,
      path,
    );
  return found[0]!;
}

/** The experiment with only the picked methods (a case study of two methods stays small). */
export function pickMethods(exp: LoadedExperiment, ids: readonly string[] | undefined): LoadedExperiment {
  if (!ids || ids.length === 0) return exp;
  const known = exp.config.methods.map((m) => m.id);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0)
    throw new InputError(
      `--methods: ${unknown.join(', ')} not in the experiment (its methods: ${known.join(', ')})`,
      exp.path,
    );
  return {
    ...exp,
    config: {
      ...exp.config,
      methods: exp.config.methods.filter((m) => ids.includes(m.id)) as typeof exp.config.methods,
    },
  };
}

type CreatedMethod = Awaited<ReturnType<typeof createMethods>>[number];
type Batch = ReturnType<typeof emptyBatch>;

/** A method's retrieval for the question as the explanation shows it: its route and its ranked units with previews. */
function explainedMethod(m: CreatedMethod, batch: Batch, indexes: IndexCache, instance: Instance): ExplainedMethod {
  const row = batch.retrievals.find((r) => r.method === m.id);
  if (!row) throw new Error(`runMethod wrote no row for method ${m.id}`);
  const index = indexes.get(instance, m.index);
  const units = row.unitIds.map((id, i): ExplainedUnit => {
    const unit = index.unit(id);
    return {
      rank: i + 1,
      id,
      sessionId: unit?.sessionId ?? row.unitSessionIds[i] ?? '',
      date: unit?.at ?? '',
      score: row.scores[i] ?? Number.NaN,
      preview: (unit?.text ?? '').replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS),
    };
  });
  return {
    method: m.id,
    gotOracleType: m.impl.capabilities.oracleType === true,
    degraded: m.impl.capabilities.degraded ?? null,
    predictedType: row.predictedType,
    typeProbs: row.typeProbs,
    route: row.route,
    noMemory: row.noMemory,
    units,
    notes: row.notes,
    context: row.context,
    latencyMs: row.latencyMs,
    error: row.error,
  };
}

/** Per method, the rank of the first unit from each evidence session it returned. */
function evidenceRanksOf(
  explained: readonly ExplainedMethod[],
  instance: Instance,
): Record<string, Record<string, number>> {
  const evidenceRanks: Record<string, Record<string, number>> = {};
  for (const m of explained) {
    const ranks: Record<string, number> = {};
    for (const s of instance.gold.evidenceSessionIds) {
      const at = m.units.findIndex((u) => u.sessionId === s);
      if (at >= 0) ranks[s] = at + 1;
    }
    evidenceRanks[m.method] = ranks;
  }
  return evidenceRanks;
}

export async function explainQuestion(exp0: LoadedExperiment, o: ExplainOptions): Promise<ExplainResult> {
  const exp = pickMethods(exp0, o.methods);
  const methods0 = await createMethods(exp.config, exp.path, exp.configHash);
  embedders.parseOptions(exp.config.embedder.name, exp.config.embedder.options, `${exp.path}: embedder`);
  const { instance, source, datasetIndex } = await findInstance(exp.config, o, exp.path);
  // The methods as that dataset runs them (its entry's index / methods settings, src/core/dataset-methods.ts).
  const config = configForDataset(exp.config, datasetIndex, exp.path);
  const methods =
    config === exp.config
      ? methods0
      : await createMethods(config, `${exp.path}: datasets.${datasetIndex}`, exp.configHash);
  const llm = config.llm ? createLlmProvider(config.llm) : undefined;
  const cache = await openEmbeddingCache();
  try {
    const embedder: Embedder = await embedders.create(
      config.embedder.name,
      config.embedder.options,
      { cache },
      `${exp.path}: embedder`,
    );
    const indexes = new IndexCache(embedder, methods.length + 1);
    // Same config as the run, but the context is always kept and no QA is run (a case study reads retrieval).
    const { qa: _qa, ...rest } = config;
    const runConfig: ExperimentConfig = { ...rest, storeContext: true };
    const batch = emptyBatch(instance, 'explain');
    const context = { config: runConfig, runId: 'explain', indexes, llm, protocol: source.format };
    for (const m of methods) await runMethod(instance, m, batch, context);
    const explained = methods.map((m) => explainedMethod(m, batch, indexes, instance));
    const evidenceRanks = evidenceRanksOf(explained, instance);
    return {
      experiment: exp.path,
      dataset: instance.dataset,
      question: { id: instance.query.id, text: instance.query.text, askedAt: instance.query.askedAt },
      methods: explained,
      gold: {
        ...instance.gold,
        scores: batch.scores.map((s) => ({
          method: s.method,
          level: s.level,
          metric: s.metric,
          k: s.k,
          value: s.value,
          counted: s.counted,
        })),
        evidenceRanks,
      },
    };
  } finally {
    await cache.close();
  }
}
