/**
 * One Every Eval Ever 0.3.0 aggregate log per (run, dataset, method). How the model-centred schema carries a memory
 * system: `model_info` is the memory system (name = the method id, id = `adaptmr-bench/<method>`, its registry
 * kind, granularity, k and capabilities in `additional_details`, whose values must be strings); the reader model is
 * in each result's `generation_config.additional_details.reader_model`; the judges are the accuracy results'
 * `metric_config.llm_scoring.judges` (each a `model_info` whose id is the judge model, name the judge id). One
 * result per scored cell — level × metric × k × AdaptMR type, `all` being the official overall mean — with its
 * 95% bootstrap CI from the results file's `score_cis`.
 */
import { EEE_SCHEMA_VERSION } from './eee-schema.ts';
import { type EvalKey, DEVELOPER, evaluationId, modelId, resultId, samplesPath } from './ids.ts';
import { type Config, type JudgeFact, datasetEntry, judgePanel, methodEntry, roleModel } from './config-facts.ts';
import type { MethodFact, Row, RunFacts } from './load-results.ts';
import { metricBasis, metricLabel } from './metric-basis.ts';

export interface AggregateInput {
  key: EvalKey;
  run: RunFacts;
  config: Config;
  method: MethodFact;
  cis: Row[];
  samples: { checksum: string; rows: number };
  datasetContentSha256: string;
  questions: number;
}

const THIRD_PARTY = new Set(['mem0', 'zep', 'http-memory', 'memory-server']);

function judgeConfig(j: JudgeFact): Record<string, unknown> {
  return {
    model_info: {
      name: j.id,
      id: j.model,
      additional_details: {
        deployment_type: 'externally_managed',
        model_availability: 'unknown',
        prompt: j.prompt ?? 'dataset default',
      },
    },
  };
}

function metricConfig(c: Row, judges: JudgeFact[]): Record<string, unknown> {
  const k = (c.k as number | null) ?? null;
  const metric = String(c.metric);
  const level = String(c.level);
  const out: Record<string, unknown> = {
    evaluation_description: metricBasis(metric, level, k),
    metric_id: `adaptmr.${metric}`,
    metric_name: metricLabel(metric, level, k),
    metric_kind: metric,
    metric_unit: 'proportion',
    metric_parameters: { level, k, basis: metricBasis(metric, level, k) },
    lower_is_better: false,
    score_type: 'continuous',
    min_score: 0,
    max_score: 1,
  };
  if (metric === 'accuracy' && judges.length > 0) {
    out.llm_scoring = {
      judges: judges.map(judgeConfig),
      input_prompt: judges.map((j) => `${j.id}: ${j.prompt ?? 'dataset default'}`).join('; '),
      aggregation_method: 'majority_vote',
    };
  }
  return out;
}

function result(a: AggregateInput, c: Row, judges: JudgeFact[]): Record<string, unknown> {
  const k = (c.k as number | null) ?? null;
  const cell = { level: String(c.level), metric: String(c.metric), k, adaptType: String(c.adapt_type) };
  const sample = datasetEntry(a.config, a.key.dataset).sample;
  return {
    evaluation_result_id: resultId(cell),
    evaluation_name: `${a.key.dataset} ${metricLabel(cell.metric, cell.level, k)} [${cell.adaptType}]`,
    source_data: {
      dataset_name: a.key.dataset,
      source_type: 'other',
      additional_details: {
        content_sha256: a.datasetContentSha256,
        questions: String(a.questions),
        sample: JSON.stringify(sample ?? null),
        adapt_type: cell.adaptType,
        granularity: String(c.granularity),
      },
    },
    evaluation_timestamp: a.run.started_at,
    metric_config: metricConfig(c, judges),
    score_details: {
      score: c.mean,
      uncertainty: {
        confidence_interval: {
          lower: c.ci_low,
          upper: c.ci_high,
          confidence_level: 0.95,
          method: `bootstrap ${String(c.ci_method)} by ${String(c.bootstrap)} (${String(c.units)} units)`,
        },
        num_samples: c.n,
        num_bootstrap_samples: c.resamples,
      },
    },
    generation_config: {
      additional_details: {
        reader_model: roleModel(a.config, 'reader') ?? 'none (retrieval only)',
        k: String(a.method.k),
      },
    },
  };
}

function modelInfo(a: AggregateInput): Record<string, unknown> {
  const m = a.method;
  const entry = methodEntry(a.config, m.method);
  return {
    name: m.method,
    id: modelId(m.method),
    developer: DEVELOPER,
    inference_platform: THIRD_PARTY.has(m.kind) ? 'memory server' : 'adaptmr-bench (in process)',
    additional_details: {
      deployment_type: 'self_deployed',
      model_availability: 'open_weights',
      system_kind: m.kind,
      granularity: m.granularity,
      k: String(m.k),
      output: m.output,
      upper_bound: String(m.upper_bound),
      degraded: m.degraded ?? 'no',
      capabilities: m.capabilities,
      options: JSON.stringify(entry.options ?? {}),
      reader_model: roleModel(a.config, 'reader') ?? 'none',
      embedder: JSON.stringify(a.config.embedder ?? null),
    },
  };
}

export function aggregateLog(a: AggregateInput): Record<string, unknown> {
  const judges = judgePanel(a.config);
  return {
    schema_version: EEE_SCHEMA_VERSION,
    evaluation_id: evaluationId(a.key),
    evaluation_timestamp: a.run.started_at,
    retrieved_timestamp: a.run.ended_at ?? a.run.started_at,
    source_metadata: {
      source_name: 'AdaptMR Bench',
      source_type: 'evaluation_run',
      source_organization_name: 'AdaptMR Bench',
      evaluator_relationship: THIRD_PARTY.has(a.method.kind) ? 'third_party' : 'first_party',
      additional_details: {
        run_id: a.run.run_id,
        run_name: a.run.name,
        config_hash: a.run.config_hash,
        status: a.run.status,
      },
    },
    eval_library: {
      name: 'adaptmr-bench',
      version: String((JSON.parse(a.run.package_versions) as Record<string, unknown>)['adaptmr-bench'] ?? 'unknown'),
      additional_details: { git_commit: a.run.git_commit ?? 'unknown', git_dirty: String(a.run.git_dirty) },
    },
    model_info: modelInfo(a),
    evaluation_results: a.cis.map((c) => result(a, c, judges)),
    detailed_evaluation_results: {
      format: 'jsonl',
      file_path: samplesPath(a.key),
      hash_algorithm: 'sha256',
      checksum: a.samples.checksum,
      total_rows: a.samples.rows,
    },
  };
}
