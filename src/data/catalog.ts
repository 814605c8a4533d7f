/** The light, per-question view used to choose questions (stratified sampling) before full haystacks are built. */
import type { AdaptType } from '../core/types.ts';

export interface CatalogEntry {
  questionId: string;
  nativeType: string;
  adaptType: AdaptType;
  isAbstention: boolean;
  /** The file the question was read from (folder layouts), so a later pass can read only the files it keeps. */
  file?: string;
}
