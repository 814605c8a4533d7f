/**
 * A mean over questions with its 95% bootstrap CI, resampling whole conversations where the questions share them
 * (`bootstrapFor`, as every statistic of the results file): for the numbers the beyond-benchmarks and router-transfer
 * sections compute outside `scores_by_type` (native types outside the five, classifier accuracy).
 */
import { bootstrapCi, clusterBy, PlanCache, seedFor, singletons, type Interval } from '../../eval/stats/index.ts';
import { bootstrapFor, conversationOf } from '../../eval/stats/results/index.ts';

export interface QuestionValue {
  questionId: string;
  value: number;
}

const plans = new PlanCache(32);

export function meanCi(
  values: readonly QuestionValue[],
  seed: number,
  resamples: number,
  key: string,
): Interval & { n: number } {
  const sorted = [...values].sort((a, b) => (a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0));
  const x = Float64Array.from(sorted.map((v) => v.value));
  const bootstrap = bootstrapFor(
    sorted.map((v) => v.questionId),
    'auto',
  );
  const units =
    bootstrap === 'conversation'
      ? clusterBy(
          x,
          sorted.map((v) => conversationOf(v.questionId) ?? v.questionId),
        )
      : singletons(x);
  const s = seedFor(seed, `${key}\t${sorted.map((v) => v.questionId).join('\n')}`);
  return { ...bootstrapCi(units, plans.get(units.sums.length, resamples, s), 'bca'), n: sorted.length };
}

export const pctCi = (i: Interval & { n: number }): string =>
  `${(i.estimate * 100).toFixed(1)}% [${(i.low * 100).toFixed(1)}, ${(i.high * 100).toFixed(1)}] (${i.n})`;
