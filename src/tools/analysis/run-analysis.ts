/**
 * The two analyses end to end on a results file: load (store.ts), compute (pure modules), store the table back and
 * return the printable text. Shared by the CLI and the tests.
 */
import { InputError } from '../../core/errors.ts';
import { abstentionScores, type AbstentionScore } from './abstention.ts';
import { bestStrategyPerType, type BestStrategyRow } from '../../eval/analysis/best-strategy.ts';
import { formatAbstention, formatBestStrategy } from './format.ts';
import {
  loadAbstentionDecisions,
  loadQuestions,
  loadScores,
  methodsByKind,
  openForAnalysis,
  storeAbstention,
  storeBestStrategy,
  type BestStrategyParams,
} from './store.ts';

export interface BestStrategyOptions extends BestStrategyParams {
  /** Candidate strategies; default: every `method: strategy` of the file's runs. */
  strategies?: string[];
  /** Series shown next to the bound; default: every `unified-embedding` method. */
  baselines?: string[];
  run?: string;
}

export const BEST_STRATEGY_DEFAULTS: BestStrategyParams = {
  metric: 'recall_any',
  level: 'session',
  k: 10,
  split: 0.5,
  seed: 42,
};

export async function analyzeBestStrategy(
  path: string,
  o: BestStrategyOptions,
): Promise<{ rows: BestStrategyRow[]; text: string }> {
  if (!(o.split > 0 && o.split < 1))
    throw new InputError(`must be between 0 and 1 (exclusive), got ${o.split}`, '--split');
  const store = await openForAnalysis(path);
  try {
    const kinds = await methodsByKind(store, o.run);
    const strategies = o.strategies ?? kinds.get('strategy') ?? [];
    const baselines = o.baselines ?? kinds.get('unified-embedding') ?? [];
    if (strategies.length < 2) {
      throw new InputError(
        `best-strategy needs at least two strategies as methods (\`method: strategy\`), found ${strategies.length}`,
        path,
      );
    }
    const rows = bestStrategyPerType({
      questions: await loadQuestions(store, o.run),
      scores: await loadScores(store, o, o.run),
      strategies,
      baselines,
      fraction: o.split,
      seed: o.seed,
    });
    if (rows.length === 0)
      throw new InputError(
        `no counted ${o.metric}@${o.k} (${o.level}) scores for the strategies ${strategies.join(', ')}`,
        path,
      );
    await storeBestStrategy(store, rows, o);
    const title = `${o.metric}@${o.k} (${o.level}), selection ${o.split} / seed ${o.seed}`;
    return { rows, text: `${formatBestStrategy(rows, title)}\nstored in table analysis_best_strategy of ${path}` };
  } finally {
    await store.close();
  }
}

export async function analyzeAbstention(
  path: string,
  run?: string,
): Promise<{ rows: AbstentionScore[]; text: string }> {
  const store = await openForAnalysis(path);
  try {
    const rows = abstentionScores(await loadAbstentionDecisions(store, run));
    await storeAbstention(store, rows);
    return { rows, text: `${formatAbstention(rows)}\nstored in table analysis_abstention of ${path}` };
  } finally {
    await store.close();
  }
}
