/** LoCoMo's category numbers → AdaptMR types (plan §2.2). */
import type { AdaptType } from '../../src/core/types.ts';

/**
 * LoCoMo category numbers as the data and LoCoMo's own `task_eval/evaluation.py` use them (docs/datasets.md §1):
 * 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial.
 */
export const LOCOMO_CATEGORIES: Record<number, AdaptType> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'factual',
  4: 'factual',
  5: 'abstention',
};
