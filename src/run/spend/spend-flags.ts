/**
 * `adaptmr run --batch reader,judge --budget-usd 20`: the command-line form of `llm.batch.roles` and `llm.budgetUsd`,
 * so a committed experiment file (kept for synchronous use) runs through the Batch API or under a budget without
 * being edited. Neither is part of the run's identity (load-config.ts): the flags resume the same run.
 */
import type { ExperimentConfig } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import { formatZodError } from '../../core/registry.ts';
import { LlmBatchSchema } from '../../core/llm-config.ts';

export function withSpendFlags(
  config: ExperimentConfig,
  flags: { batch?: string | undefined; budgetUsd?: number | undefined },
  path: string,
): ExperimentConfig {
  if (!config.llm) throw new InputError('--batch and --budget-usd need an llm: block in the experiment', path);
  const llm = { ...config.llm };
  if (flags.batch !== undefined) {
    const roles = flags.batch
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    const parsed = LlmBatchSchema.safeParse({ ...(llm.batch ?? {}), roles });
    if (!parsed.success) throw new InputError(formatZodError(parsed.error), '--batch');
    llm.batch = parsed.data;
  }
  if (flags.budgetUsd !== undefined) {
    if (!(flags.budgetUsd > 0)) throw new InputError('must be a positive number of dollars', '--budget-usd');
    llm.budgetUsd = flags.budgetUsd;
  }
  return { ...config, llm };
}
