/**
 * Reading a predictions file for `adaptmr score-answers`: JSON lines `{question_id, prediction}` (LongMemEval's own
 * `hypothesis` key is accepted for `prediction`, so the official jsonl files score as they are; other keys are
 * ignored). Blank lines are skipped; any other bad line fails with the file and its line number.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../../core/errors.ts';

export const PredictionLineSchema = z
  .object({
    question_id: z.union([z.string().min(1), z.number()]).transform(String),
    prediction: z.string().optional(),
    hypothesis: z.string().optional(),
  })
  .refine((l) => (l.prediction === undefined) !== (l.hypothesis === undefined), {
    message: 'needs exactly one of "prediction" or "hypothesis" (a string)',
  });

export interface PredictionLine {
  /** 1-based line number in the file. */
  line: number;
  questionId: string;
  prediction: string;
}

export function parsePredictions(text: string, file: string): PredictionLine[] {
  const out: PredictionLine[] = [];
  const lines = text.split(/\r?\n/u);
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new InputError('not a JSON object', where);
    }
    const parsed = PredictionLineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') ?? '';
      throw new InputError(`${field ? `${field}: ` : ''}${issue?.message ?? 'invalid line'}`, where);
    }
    out.push({
      line: i + 1,
      questionId: parsed.data.question_id,
      prediction: parsed.data.prediction ?? parsed.data.hypothesis ?? '',
    });
  });
  if (out.length === 0) throw new InputError('no prediction lines', file);
  return out;
}

export function readPredictions(file: string): PredictionLine[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, file);
  }
  return parsePredictions(text, file);
}
