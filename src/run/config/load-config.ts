/**
 * Reads an experiment YAML file into a validated `ExperimentConfig`. Every failure names the file and, for schema
 * errors, the field path (the config schema is strict, so a typo fails loudly instead of being ignored).
 */
import { ExperimentConfigSchema, type ExperimentConfig } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import { formatZodError } from '../../core/registry.ts';
import { stableHash } from '../../core/hash.ts';
import { registerCredentialsIn } from '../../core/secrets.ts';
import { methodsForDataset } from '../../core/dataset-methods.ts';
import { expandReplicates } from './replicates.ts';
import { readYamlFile, readYamlText } from './yaml-text.ts';

export interface LoadedExperiment {
  path: string;
  config: ExperimentConfig;
  /** sha256 of the canonical JSON of the resolved (defaults filled) config, execution settings left out. */
  configHash: string;
}

export async function loadExperiment(path: string): Promise<LoadedExperiment> {
  return loadedFromValue(await readYamlFile(path, 'experiment file'), path);
}

export function parseExperiment(text: string, path: string): LoadedExperiment {
  return loadedFromValue(readYamlText(text, path), path);
}

/** Validates a plain config value (from YAML, or a sweep's expansion) into a LoadedExperiment; `path` names it in errors. */
export function loadedFromValue(value: unknown, path: string): LoadedExperiment {
  registerCredentialsIn(value);
  const parsed = ExperimentConfigSchema.safeParse(value);
  if (!parsed.success) throw new InputError(formatZodError(parsed.error), path);
  const config = parsed.data;
  config.methods = expandReplicates(config.methods, path) as typeof config.methods;
  const ids = config.methods.map((m) => m.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new InputError(`methods: id "${dup}" is used twice; method ids must be unique`, path);
  // A dataset's method settings name existing methods and merge into valid entries (options are checked by each
  // registry when the run builds the methods).
  config.datasets.forEach((_, i) => methodsForDataset(config, i, path));
  // How many questions run at once does not change the results, so it is not part of the run's identity: a rerun
  // with another concurrency resumes the same run. Nor do the statistics settings, the report's plan section and the
  // run's failure limit. Nor how the LLM calls are paid for (the Batch API or one request each; a budget that stops
  // the run early): replies are the same, and a run resumed with a larger budget or in batch mode is the same run.
  const { concurrency: _concurrency, stats: _stats, plan: _plan, run: _run, ...identity } = config;
  if (identity.llm) {
    const { batch: _batch, budgetUsd: _budget, ...llm } = identity.llm;
    return { path, config, configHash: stableHash({ ...identity, llm }) };
  }
  return { path, config, configHash: stableHash(identity) };
}
