/**
 * Checks a question batch before it touches the database, so a runner bug fails with the question named instead
 * of leaving odd rows: every row must belong to the batch's question, score values must be finite numbers (a NaN
 * or Infinity would silently poison every average in scores_by_type), and k must be a positive integer or null.
 */
import { InputError } from '../core/errors.ts';
import type { QuestionBatch } from './types.ts';

const LEVELS = new Set(['session', 'turn', 'qa']);

function where(batch: QuestionBatch): string {
  return `run ${batch.runId}, question ${batch.question.dataset}/${batch.question.questionId}`;
}

function checkOwner(
  batch: QuestionBatch,
  kind: string,
  rows: readonly { dataset: string; questionId: string }[],
): void {
  const { dataset, questionId } = batch.question;
  const stray = rows.find((r) => r.dataset !== dataset || r.questionId !== questionId);
  if (stray) throw new InputError(`${kind} row belongs to ${stray.dataset}/${stray.questionId}`, where(batch));
}

export function validateBatch(batch: QuestionBatch): void {
  checkOwner(batch, 'retrieval', batch.retrievals);
  checkOwner(batch, 'score', batch.scores);
  checkOwner(batch, 'answer', batch.answers ?? []);
  checkOwner(batch, 'verdict', batch.verdicts ?? []);
  checkOwner(batch, 'gold version', batch.goldVersions ?? []);
  checkOwner(batch, 'cutoff answer', batch.cutoffAnswers ?? []);
  checkOwner(batch, 'llm call', batch.llmCalls ?? []);
  for (const s of batch.scores) {
    const id = `${s.method} ${s.level} ${s.metric}${s.k === null ? '' : ` k=${s.k}`}`;
    if (!Number.isFinite(s.value)) throw new InputError(`score ${id} is ${s.value}`, where(batch));
    if (!LEVELS.has(s.level)) throw new InputError(`score ${id} has unknown level`, where(batch));
    if (s.k !== null && !(Number.isInteger(s.k) && s.k > 0))
      throw new InputError(`score ${id} has bad k`, where(batch));
  }
}
