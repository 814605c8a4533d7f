/**
 * What a method factory receives besides its own options: its id in the experiment, the index spec it asked for,
 * its retrieval budget k, and the run seed. Shared by every baseline and by the AdaptMR method.
 */
import type { IndexSpec } from '../src/core/interfaces.ts';

export interface MethodFactoryContext {
  id: string;
  index: IndexSpec;
  k: number;
  seed: number;
}
