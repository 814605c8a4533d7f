/**
 * The seeded selection / report split of `adaptmr analyze best-strategy`: per dataset, stratified by AdaptMR type,
 * each question's place is the sha256 of `seed:dataset:id`, so the split depends only on the seed and the question
 * ids (not on row order, runs or methods) and a rerun with the same seed reproduces it exactly.
 */
import { sha256 } from '../../core/hash.ts';

export interface SplitQuestion {
  dataset: string;
  questionId: string;
  adaptType: string;
}

export type SplitHalf = 'selection' | 'report';

/**
 * `selection` gets round(fraction × n) questions of every (dataset, type) stratum — at least one and at most n − 1
 * when the stratum has two or more, so both halves see every type; a single-question stratum goes to `report`.
 * Returns `${dataset}\t${questionId}` → half.
 */
export function splitQuestions(
  questions: readonly SplitQuestion[],
  fraction: number,
  seed: number,
): Map<string, SplitHalf> {
  if (!(fraction > 0 && fraction < 1)) throw new RangeError(`split fraction must be between 0 and 1, got ${fraction}`);
  const strata = new Map<string, SplitQuestion[]>();
  for (const q of questions) {
    const key = `${q.dataset}\t${q.adaptType}`;
    const list = strata.get(key) ?? [];
    list.push(q);
    strata.set(key, list);
  }
  const out = new Map<string, SplitHalf>();
  for (const list of strata.values()) {
    const ordered = list
      .map((q) => ({ q, h: sha256(`${seed}:${q.dataset}:${q.questionId}`) }))
      .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : a.q.questionId < b.q.questionId ? -1 : 1));
    const n = ordered.length;
    const nSelect = n < 2 ? 0 : Math.min(n - 1, Math.max(1, Math.round(fraction * n)));
    ordered.forEach(({ q }, i) => out.set(splitKey(q.dataset, q.questionId), i < nSelect ? 'selection' : 'report'));
  }
  return out;
}

export function splitKey(dataset: string, questionId: string): string {
  return `${dataset}\t${questionId}`;
}
