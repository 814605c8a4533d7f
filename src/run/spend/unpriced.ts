/**
 * Models a run may call that the price table (`llm.prices`) does not list. The cost of a call to such a model is
 * counted as 0 (src/llm/cost.ts: a local server is free per call), so a budget (`llm.budgetUsd`) could not hold:
 * a run with a budget and an unpriced model is refused before any work unless the user says the model is free
 * (`--allow-unpriced`), and the estimate prints "unknown" for its cost instead of $0.
 */
import type { ExperimentConfig } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import type { PanelJudge } from '../../eval/qa/panel.ts';

export interface UnpricedModel {
  model: string;
  /** Where the config names it: `llm.roles.reader`, `qa.judges[gpt4]`. */
  where: string;
}

/** Every model of the config's LLM roles and judge panel absent from `llm.prices`, once each. */
export function unpricedModels(config: ExperimentConfig, panel: readonly PanelJudge[] = []): UnpricedModel[] {
  const llm = config.llm;
  if (!llm) return [];
  const named: UnpricedModel[] = [
    ...Object.entries(llm.roles).flatMap(([role, rc]) => (rc ? [{ model: rc.model, where: `llm.roles.${role}` }] : [])),
    ...panel.map((j) => ({ model: j.model, where: `qa.judges[${j.id}]` })),
  ];
  const seen = new Set<string>();
  return named.filter((m) => !(m.model in llm.prices) && !seen.has(m.model) && seen.add(m.model));
}

/** Refuses a run with a budget and an unpriced model, unless `allowUnpriced` (then the model counts as free). */
export function checkBudgetPrices(
  config: ExperimentConfig,
  panel: readonly PanelJudge[],
  allowUnpriced: boolean | undefined,
  where: string,
): void {
  if (config.llm?.budgetUsd === undefined || allowUnpriced) return;
  const missing = unpricedModels(config, panel);
  if (missing.length === 0) return;
  const names = missing.map((m) => `"${m.model}" (${m.where})`).join(', ');
  throw new InputError(
    `llm.budgetUsd $${config.llm.budgetUsd} cannot hold: ${names} ha${missing.length === 1 ? 's' : 've'} no price in llm.prices, so ` +
      `${missing.length === 1 ? 'its' : 'their'} calls would count as $0. Add llm.prices.${missing[0]!.model}: { inputPerMTok, outputPerMTok }, ` +
      'or pass --allow-unpriced if the model is free (a local server)',
    where,
  );
}
