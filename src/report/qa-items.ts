/**
 * Reads one row per (run, dataset, method, granularity, question) that has QA scores (level 'qa', k NULL): the
 * accuracy/F1/BLEU-1 values, whether the row counts, the gold types, and every judge run's verdict from
 * `answers.judge_verdicts` (JSON: one entry per judge pass, each `{ correct: boolean[], raw: string[] }`, see
 * src/run/question.ts). A verdict list that disagrees with the stored accuracy stops the report: the two are
 * written together, so a mismatch means the file is being misread.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import type { ResultStore } from '../store/index.ts';
import type { SeriesKey } from './series-label.ts';

export interface QaItem extends SeriesKey {
  dataset: string;
  questionId: string;
  nativeType: string;
  adaptType: string;
  counted: boolean;
  /** Share of judge runs saying correct (the `accuracy` score); null when not judged. */
  accuracy: number | null;
  f1: number | null;
  bleu1: number | null;
  /** One verdict per judge run (empty when not judged). */
  correct: boolean[];
}

const VerdictsSchema = z.array(z.looseObject({ correct: z.array(z.boolean()) }));

interface Row {
  run_id: string;
  dataset: string;
  method: string;
  granularity: string;
  question_id: string;
  native_type: string;
  adapt_type: string;
  counted: boolean;
  accuracy: number | null;
  f1: number | null;
  bleu1: number | null;
  judge_verdicts: string | null;
}

function verdicts(r: Row, where: string): boolean[] {
  if (r.judge_verdicts === null) return [];
  const parsed = VerdictsSchema.safeParse(JSON.parse(r.judge_verdicts));
  if (!parsed.success)
    throw new InputError(`answers.judge_verdicts is not [{ correct: boolean[] }]: ${parsed.error.message}`, where);
  return parsed.data.flatMap((v) => v.correct);
}

export async function loadQaItems(store: ResultStore): Promise<QaItem[]> {
  const rows = await store.query<Row>(
    `SELECT s.run_id, s.dataset, s.method, s.granularity, s.question_id, q.native_type, q.adapt_type,
            bool_and(s.counted) AS counted,
            max(s.value) FILTER (WHERE s.metric = 'accuracy') AS accuracy,
            max(s.value) FILTER (WHERE s.metric = 'f1') AS f1,
            max(s.value) FILTER (WHERE s.metric = 'bleu1') AS bleu1,
            any_value(a.judge_verdicts) AS judge_verdicts
     FROM scores s
     JOIN questions q ON q.run_id = s.run_id AND q.dataset = s.dataset AND q.question_id = s.question_id
     LEFT JOIN answers a ON a.run_id = s.run_id AND a.dataset = s.dataset AND a.question_id = s.question_id AND a.method = s.method
     WHERE s.level = 'qa' AND s.k IS NULL
     GROUP BY ALL ORDER BY ALL`,
  );
  return rows.map((r) => {
    const where = `${r.dataset} / ${r.question_id} / ${r.method} (run ${r.run_id})`;
    const correct = verdicts(r, where);
    if (r.accuracy !== null) {
      const share = correct.length > 0 ? correct.filter(Boolean).length / correct.length : NaN;
      if (!(Math.abs(share - r.accuracy) < 1e-9)) {
        throw new InputError(`accuracy ${r.accuracy} does not match the judge verdicts [${correct.join(', ')}]`, where);
      }
    }
    return {
      run_id: r.run_id,
      method: r.method,
      granularity: r.granularity,
      dataset: r.dataset,
      questionId: r.question_id,
      nativeType: r.native_type,
      adaptType: r.adapt_type,
      counted: r.counted,
      accuracy: r.accuracy,
      f1: r.f1,
      bleu1: r.bleu1,
      correct,
    };
  });
}
