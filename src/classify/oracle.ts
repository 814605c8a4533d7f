/**
 * The oracle classifier — "oracle (gold type)": it returns the gold AdaptMR type. It is the one classifier that
 * sees gold (docs/design.md §3), so it is not in the `classifiers` registry (whose factories get no gold) and is built
 * only by code that holds the gold: `createOracleClassifier(goldTypeById)` from the runner or the evaluator.
 * Any figure it produces saw gold, never a classifier result.
 */
import { InputError } from '../core/errors.ts';
import type { Classifier, Ctx } from '../core/interfaces.ts';
import { oneHot, type AdaptType, type Query } from '../core/types.ts';
import type { Classification } from './result.ts';

export const ORACLE_NAME = 'oracle';
export const ORACLE_LABEL = 'oracle (gold type)';

export class OracleClassifier implements Classifier {
  readonly name = ORACLE_NAME;
  readonly label = ORACLE_LABEL;
  constructor(private readonly goldTypeById: ReadonlyMap<string, AdaptType>) {}

  async classify(query: Query, _ctx?: Ctx): Promise<Classification> {
    const type = this.goldTypeById.get(query.id);
    if (!type) throw new InputError(`${ORACLE_LABEL}: no gold type for this question`, `question ${query.id}`);
    return { type, probs: oneHot(type), source: 'gold' };
  }
}

export function createOracleClassifier(goldTypeById: ReadonlyMap<string, AdaptType>): OracleClassifier {
  return new OracleClassifier(goldTypeById);
}
