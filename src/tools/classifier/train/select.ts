/**
 * Model choice by nested cross-validation for the trainable classifier: candidates are feature sets (hashed
 * n-grams alone — spec v1 — or with the rules' cue matches — spec v2) × L2 strength; the inner k-fold CV on the
 * training part picks the candidate with the best mean accuracy (ties: the earlier, simpler one), which is then
 * trained on the whole training part. Nothing of the outer test part is seen by the choice. Feature rows are
 * computed once per question (v1 rows are the v2 rows without the cue block).
 */
import { specWithCues, specWithWordVectors, sparseRow, type FeatureSpec, type SparseRow } from '../../../classify/onnx/features.ts';
import { argmaxType, probsFromArray } from '../../../classify/result.ts';
import { DEFAULT_FEATURE_SPEC } from '../../../classify/onnx/features.ts';
import { ADAPT_TYPES } from '../../../core/types.ts';
import { stratifiedFolds } from '../eval/folds.ts';
import type { LabelledQuestion } from '../eval/questions.ts';
import { predictLinearRow, trainLinearRows, type LinearModel, type TrainOptions } from './train.ts';

export interface Candidate {
  name: string;
  spec: FeatureSpec;
  l2: number;
}

const V2 = specWithCues();
const V3 = specWithWordVectors();
const CUES_WV = specWithWordVectors({ ...DEFAULT_FEATURE_SPEC, dim: 0 });

/** The grid, simplest first (tie-break order). */
export const CANDIDATES: readonly Candidate[] = [
  { name: 'ngrams l2=1e-2', spec: DEFAULT_FEATURE_SPEC, l2: 1e-2 },
  { name: 'ngrams l2=1e-3', spec: DEFAULT_FEATURE_SPEC, l2: 1e-3 },
  { name: 'ngrams+cues l2=1e-2', spec: V2, l2: 1e-2 },
  { name: 'ngrams+cues l2=1e-3', spec: V2, l2: 1e-3 },
  { name: 'cues+wv l2=1e-3', spec: CUES_WV, l2: 1e-3 },
  { name: 'ngrams+cues+wv l2=1e-2', spec: V3, l2: 1e-2 },
  { name: 'ngrams+cues+wv l2=1e-3', spec: V3, l2: 1e-3 },
];

/** Training settings for the selection runs and the final models (lazy Adam; see train.ts). */
export const SELECT_TRAIN: Partial<TrainOptions> = { epochs: 15, lazy: true };

/** Feature rows per (spec, question), each built once by features.ts `sparseRow` — the function inference uses. */
export class RowCache {
  private readonly rows = new Map<string, Map<string, SparseRow>>();

  row(q: LabelledQuestion, spec: FeatureSpec): SparseRow {
    const specKey = JSON.stringify(spec);
    let bySpec = this.rows.get(specKey);
    if (!bySpec) {
      bySpec = new Map();
      this.rows.set(specKey, bySpec);
    }
    const key = `${q.dataset}\u0000${q.query.id}`;
    let r = bySpec.get(key);
    if (!r) {
      r = sparseRow(q.query.text, spec);
      bySpec.set(key, r);
    }
    return r;
  }
}

export function fitCandidate(c: Candidate, train: readonly LabelledQuestion[], cache: RowCache, seed: number): LinearModel {
  return trainLinearRows(
    train.map((q) => cache.row(q, c.spec)),
    train.map((q) => q.gold),
    { ...SELECT_TRAIN, spec: c.spec, l2: c.l2, seed },
  );
}

export function accuracyOf(model: LinearModel, test: readonly LabelledQuestion[], cache: RowCache): number {
  let right = 0;
  for (const q of test) {
    const probs = probsFromArray(predictLinearRow(model, cache.row(q, model.spec)), ADAPT_TYPES);
    if (argmaxType(probs) === q.gold) right += 1;
  }
  return right / Math.max(1, test.length);
}

export interface Selection {
  chosen: Candidate;
  /** Mean inner-CV accuracy per candidate name. */
  scores: Record<string, number>;
}

export function selectCandidate(train: readonly LabelledQuestion[], cache: RowCache, seed: number, innerFolds = 3, candidates: readonly Candidate[] = CANDIDATES): Selection {
  const fold = stratifiedFolds(train.map((q) => `${q.dataset}:${q.gold}`), innerFolds, seed + 1);
  const scores: Record<string, number> = {};
  let best: Candidate | undefined;
  for (const c of candidates) {
    let sum = 0;
    for (let f = 0; f < innerFolds; f++) {
      const model = fitCandidate(c, train.filter((_, i) => fold[i] !== f), cache, seed);
      sum += accuracyOf(model, train.filter((_, i) => fold[i] === f), cache);
    }
    scores[c.name] = sum / innerFolds;
    if (!best || (scores[c.name] ?? 0) > (scores[best.name] ?? 0)) best = c;
  }
  if (!best) throw new Error('selectCandidate: no candidates');
  return { chosen: best, scores };
}
