/**
 * A training recipe for the cross-benchmark classifier: feature set, L2, example balancing and model
 * family. `fitRecipe` trains one on benchmark questions; the same function serves `classifier train --datasets`,
 * the leave-one-benchmark-out evaluation and the shipped default, so what is evaluated is what ships.
 */
import { ADAPT_TYPES } from '../../../core/types.ts';
import { argmaxType, probsFromArray } from '../../../classify/result.ts';
import { balanceWeights, type Balance } from './balance.ts';
import type { BenchmarkQuestion } from './combined.ts';
import { trainMlpRows } from './mlp.ts';
import { FEATURE_SETS, predictRow, RowCache, SELECT_MLP_TRAIN, SELECT_TRAIN, type TrainedModel } from './select.ts';
import { trainLinearRows } from './train.ts';
import { benchmarkLogPriors, rulesPrior } from './prior.ts';

export interface Recipe {
  /** A key of FEATURE_SETS (`ngrams`, `ngrams+cues`, `cues+wv`, `ngrams+cues+wv`). */
  features: string;
  l2: number;
  balance: Balance;
  /** Tempering of the balancing weights (balance.ts); default 1. */
  power?: number;
  /** Hidden units of an MLP; absent = linear softmax. */
  hidden?: number;
  epochs?: number;
  /** `rules`: start from, and regularise towards, the rules' weights (prior.ts); linear models with cues only. */
  prior?: 'rules';
  /**
   * `benchmark`: train with each example's logits offset by the log of its benchmark's class prior (logit adjustment,
   * prior.ts `benchmarkLogPriors`); the exported model adds nothing, i.e. predicts under a uniform prior. Linear only.
   */
  priorCorrection?: 'benchmark';
}

/**
 * The shipped recipe, chosen by mean leave-one-benchmark-out accuracy among the options listed in
 * src/classify/README.md ("Cross-benchmark model").
 */
export const DEFAULT_RECIPE: Recipe = { features: 'ngrams+cues', l2: 1, balance: 'benchmark+class', prior: 'rules' };

export function recipeName(r: Recipe): string {
  const parts = [r.features, `l2=${r.l2}`, `balance=${r.balance}`];
  if (r.power !== undefined && r.power !== 1) parts.push(`power=${r.power}`);
  if (r.hidden) parts.push(`mlp${r.hidden}`);
  if (r.epochs !== undefined) parts.push(`epochs=${r.epochs}`);
  if (r.prior) parts.push(`prior=${r.prior}`);
  if (r.priorCorrection) parts.push(`logit-adjust=${r.priorCorrection}`);
  return parts.join(' ');
}

export function fitRecipe(
  train: readonly BenchmarkQuestion[],
  recipe: Recipe,
  seed: number,
  cache: RowCache = new RowCache(),
): TrainedModel {
  const spec = FEATURE_SETS[recipe.features];
  if (!spec) throw new Error(`unknown feature set ${recipe.features}`);
  const rows = train.map((q) => cache.row(q, spec));
  const golds = train.map((q) => q.gold);
  const weights = balanceWeights(train, recipe.balance, recipe.power ?? 1);
  const epochs = recipe.epochs !== undefined ? { epochs: recipe.epochs } : {};
  if (recipe.hidden)
    return trainMlpRows(
      rows,
      golds,
      {
        ...SELECT_MLP_TRAIN,
        spec,
        l2: recipe.l2,
        seed,
        hidden: recipe.hidden,
        ...epochs,
      },
      weights,
    );
  const prior = recipe.prior === 'rules' ? rulesPrior(spec) : undefined;
  const offsets = recipe.priorCorrection ? benchmarkLogPriors(train, weights) : undefined;
  const opts = { ...SELECT_TRAIN, spec, l2: recipe.l2, seed, ...epochs };
  return trainLinearRows(rows, golds, opts, weights, prior, offsets);
}

/** The model's probabilities (label order ADAPT_TYPES) for each question, computed in TypeScript. */
export function predictQuestions(
  model: TrainedModel,
  questions: readonly BenchmarkQuestion[],
  cache: RowCache = new RowCache(),
): number[][] {
  return questions.map((q) => predictRow(model, cache.row(q, model.spec)));
}

export function argmaxOf(probs: readonly number[]): string {
  return argmaxType(probsFromArray(probs, ADAPT_TYPES));
}
