/**
 * Where a run's shard comes from: `--shard i/n` (wins), else the scheduler's index variable — a Slurm array task
 * (`SLURM_ARRAY_TASK_ID`, counted from `SLURM_ARRAY_TASK_MIN`, with `SLURM_ARRAY_TASK_COUNT` or `--shards n`) or a
 * Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, 0-based, with `--shards n`: the pod is not told the completions).
 * The run prints which it used (`describe`), so a log shows why a task ran the questions it did.
 */
import type { ExperimentConfig } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import { parseShard, type Shard } from '../sweep/shard.ts';

export interface RunShard extends Shard {
  /** Where the index came from, e.g. `--shard 2/4` or `SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=4`. */
  from: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function int(env: Env, name: string, min: number): number | undefined {
  const text = env[name];
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new InputError(`"${text}" is not an integer ≥ ${min}`, name);
  return n;
}

function checked(index: number, count: number, from: string): RunShard {
  if (index < 1 || index > count)
    throw new InputError(`gives shard ${index} of ${count}; the index must be between 1 and ${count}`, from);
  return { index, count, from };
}

/** The shard of this run, or undefined for a whole run. `shards` is `--shards n`. */
export function resolveShard(flag: string | undefined, shards: number | undefined, env: Env): RunShard | undefined {
  if (flag !== undefined) {
    const s = parseShard(flag);
    if (shards !== undefined && shards !== s.count)
      throw new InputError(`--shard ${flag} names ${s.count} shards but --shards says ${shards}`, '--shards');
    return { ...s, from: `--shard ${flag}` };
  }
  const slurmId = int(env, 'SLURM_ARRAY_TASK_ID', 0);
  if (slurmId !== undefined) {
    const count = shards ?? int(env, 'SLURM_ARRAY_TASK_COUNT', 1);
    if (count === undefined)
      throw new InputError('is set but SLURM_ARRAY_TASK_COUNT is not; pass --shards n', 'SLURM_ARRAY_TASK_ID');
    const min = int(env, 'SLURM_ARRAY_TASK_MIN', 0) ?? 1;
    const countFrom = shards !== undefined ? `--shards ${shards}` : `SLURM_ARRAY_TASK_COUNT=${count}`;
    const minFrom = env.SLURM_ARRAY_TASK_MIN !== undefined ? `, SLURM_ARRAY_TASK_MIN=${min}` : '';
    return checked(slurmId - min + 1, count, `SLURM_ARRAY_TASK_ID=${slurmId}${minFrom}, ${countFrom}`);
  }
  const k8s = int(env, 'JOB_COMPLETION_INDEX', 0);
  if (k8s !== undefined) {
    if (shards === undefined)
      throw new InputError('is set; pass --shards n (the Indexed Job’s completions)', 'JOB_COMPLETION_INDEX');
    return checked(k8s + 1, shards, `JOB_COMPLETION_INDEX=${k8s}, --shards ${shards}`);
  }
  if (shards !== undefined)
    throw new InputError(
      'needs an index: --shard i/n, or SLURM_ARRAY_TASK_ID / JOB_COMPLETION_INDEX from the scheduler',
      '--shards',
    );
  return undefined;
}

/**
 * `llm.budgetUsd` of one shard: an equal part of the run's (each shard counts its own file's calls; no ledger is
 * shared between machines). A shard that reaches its part stops cleanly like any run and resumes with more.
 */
export function shardBudget(
  config: ExperimentConfig,
  shard: RunShard | undefined,
  log: (line: string) => void,
): ExperimentConfig {
  const budget = config.llm?.budgetUsd;
  if (!shard || budget === undefined || !config.llm) return config;
  const part = budget / shard.count;
  log(
    `budget: shard ${shard.index}/${shard.count} may spend $${part.toFixed(4)} (llm.budgetUsd $${budget} / ${shard.count})`,
  );
  return { ...config, llm: { ...config.llm, budgetUsd: part } };
}
