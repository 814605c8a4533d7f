/**
 * The labelled questions a classifier evaluation needs, taken from loaded questions or instances (src/data). Gold stays here:
 * classifiers receive only `query`.
 */
import type { AdaptType, Instance, Query } from '../../../core/types.ts';

export interface LabelledQuestion {
  dataset: string;
  query: Query;
  gold: AdaptType;
  nativeType: string;
  isAbstention: boolean;
}

/**
 * Questions with one of the five types as gold; a question outside them (`gold.reportAs`: LoCoMo-Plus, native types
 * reported apart as `outside`) has no type a classifier could be right about, and is left out.
 */
export function labelledQuestions(
  instances: readonly Pick<Instance, 'dataset' | 'query' | 'gold'>[],
): LabelledQuestion[] {
  return instances
    .filter((i) => i.gold.reportAs === undefined)
    .map((i) => ({
      dataset: i.dataset,
      query: i.query,
      gold: i.gold.type,
      nativeType: i.gold.nativeType,
      isAbstention: i.gold.isAbstention,
    }));
}
