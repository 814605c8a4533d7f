/**
 * Model choice by nested cross-validation for the trainable classifier: candidates are feature sets (hashed
 * n-grams alone — spec v1 —, with the rules' cue matches — v2 —, with the offline SIF sentence vector too — v3 —,
 * or cues + sentence vector without n-grams) × L2 strength × model family (linear softmax, train.ts, or a one-hidden-
 * layer MLP, mlp.ts); the inner k-fold CV on the training part picks the candidate with the best mean accuracy
 * (ties: the earlier, simpler one), which is then trained on the whole training part. Nothing of the outer test
 * part is seen by the choice. Feature rows are computed once per question and spec, by the function inference uses.
 */
import {
  specWithCues,
  specWithWordVectors,
  sparseRow,
  type FeatureSpec,
  type SparseRow,
} from '../../../classify/onnx/features.ts';
import { argmaxType, probsFromArray } from '../../../classify/result.ts';
import { DEFAULT_FEATURE_SPEC } from '../../../classify/onnx/features.ts';
import { ADAPT_TYPES } from '../../../core/types.ts';
import { stratifiedFolds } from '../eval/folds.ts';
import type { LabelledQuestion } from '../eval/questions.ts';
import { predictLinearRow, trainLinearRows, type LinearModel, type TrainOptions } from './train.ts';
import { predictMlpRow, trainMlpRows, type MlpModel, type MlpOptions } from './mlp.ts';

export interface Candidate {
  name: string;
  spec: FeatureSpec;
  l2: number;
  /** Hidden units of the MLP (mlp.ts); absent = the linear softmax model (train.ts). */
  hidden?: number;
}

export type TrainedModel = LinearModel | MlpModel;

export function predictRow(model: TrainedModel, x: SparseRow): number[] {
  return 'w1' in model ? predictMlpRow(model, x) : predictLinearRow(model, x);
}

const V2 = specWithCues();
const V3 = specWithWordVectors();
const CUES_WV = specWithWordVectors({ ...DEFAULT_FEATURE_SPEC, dim: 0 });

/** The grid of the previous table (n-grams ± cues × L2 1e-2/1e-3, linear), for before/after comparisons. */
export const PREVIOUS_CANDIDATES: readonly Candidate[] = [
  { name: 'ngrams l2=1e-2', spec: DEFAULT_FEATURE_SPEC, l2: 1e-2 },
  { name: 'ngrams l2=1e-3', spec: DEFAULT_FEATURE_SPEC, l2: 1e-3 },
  { name: 'ngrams+cues l2=1e-2', spec: V2, l2: 1e-2 },
  { name: 'ngrams+cues l2=1e-3', spec: V2, l2: 1e-3 },
];

/** Feature sets by name, as `adaptmr classifier train --features` takes them. */
export const FEATURE_SETS: Readonly<Record<string, FeatureSpec>> = {
  ngrams: DEFAULT_FEATURE_SPEC,
  'ngrams+cues': V2,
  'cues+wv': CUES_WV,
  'ngrams+cues+wv': V3,
};

/** The grid, simplest first (tie-break order). */
export const CANDIDATES: readonly Candidate[] = [
  // ('ngrams l2=1e-2' left the grid: it had the lowest inner score in every selection of the previous table.)
  { name: 'ngrams l2=1e-3', spec: DEFAULT_FEATURE_SPEC, l2: 1e-3 },
  { name: 'ngrams+cues l2=1e-2', spec: V2, l2: 1e-2 },
  { name: 'ngrams+cues l2=1e-3', spec: V2, l2: 1e-3 },
  { name: 'cues+wv l2=1e-3', spec: CUES_WV, l2: 1e-3 },
  { name: 'ngrams+cues+wv l2=1e-2', spec: V3, l2: 1e-2 },
  { name: 'ngrams+cues+wv l2=1e-3', spec: V3, l2: 1e-3 },
  { name: 'cues+wv mlp32 l2=1e-3', spec: CUES_WV, l2: 1e-3, hidden: 32 },
  { name: 'ngrams+cues+wv mlp32 l2=1e-3', spec: V3, l2: 1e-3, hidden: 32 },
];

/** Training settings for the selection runs and the final models (lazy Adam; see train.ts). */
export const SELECT_TRAIN: Partial<TrainOptions> = { epochs: 15, lazy: true };
/** The MLP's: the same epochs and batch size, a smaller step (its loss is not convex). */
export const SELECT_MLP_TRAIN: Partial<MlpOptions> = { epochs: 15, learningRate: 0.01 };

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

export function fitCandidate(
  c: Candidate,
  train: readonly LabelledQuestion[],
  cache: RowCache,
  seed: number,
): TrainedModel {
  const rows = train.map((q) => cache.row(q, c.spec));
  const golds = train.map((q) => q.gold);
  if (c.hidden !== undefined)
    return trainMlpRows(rows, golds, { ...SELECT_MLP_TRAIN, spec: c.spec, l2: c.l2, seed, hidden: c.hidden });
  return trainLinearRows(rows, golds, { ...SELECT_TRAIN, spec: c.spec, l2: c.l2, seed });
}

export function accuracyOf(model: TrainedModel, test: readonly LabelledQuestion[], cache: RowCache): number {
  let right = 0;
  for (const q of test) {
    const probs = probsFromArray(predictRow(model, cache.row(q, model.spec)), ADAPT_TYPES);
    if (argmaxType(probs) === q.gold) right += 1;
  }
  return right / Math.max(1, test.length);
}

export interface Selection {
  chosen: Candidate;
  /** Mean inner-CV accuracy per candidate name. */
  scores: Record<string, number>;
}

export function selectCandidate(
  train: readonly LabelledQuestion[],
  cache: RowCache,
  seed: number,
  innerFolds = 3,
  candidates: readonly Candidate[] = CANDIDATES,
): Selection {
  const fold = stratifiedFolds(
    train.map((q) => `${q.dataset}:${q.gold}`),
    innerFolds,
    seed + 1,
  );
  const scores: Record<string, number> = {};
  let best: Candidate | undefined;
  for (const c of candidates) {
    let sum = 0;
    for (let f = 0; f < innerFolds; f++) {
      const model = fitCandidate(
        c,
        train.filter((_, i) => fold[i] !== f),
        cache,
        seed,
      );
      sum += accuracyOf(
        model,
        train.filter((_, i) => fold[i] === f),
        cache,
      );
    }
    scores[c.name] = sum / innerFolds;
    if (!best || (scores[c.name] ?? 0) > (scores[best.name] ?? 0)) best = c;
  }
  if (!best) throw new Error('selectCandidate: no candidates');
  return { chosen: best, scores };
}
