/**
 * The committed written training/evaluation questions, Chinese (src/classify/data/zh-questions.jsonl) and English
 * (en-questions.jsonl), written from the plan's taxonomy (plan §2.2) — each file's first line says what they are.
 * Read as labelled questions of the datasets `zh-plan` and `en-plan`, so they join the benchmarks in training and
 * get their own rows in the tables.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../../core/errors.ts';
import { PACKAGE_ROOT } from '../../../core/package-root.ts';
import { AdaptTypeSchema } from '../../../core/types.ts';
import type { LabelledQuestion } from '../eval/questions.ts';

// From the package root, not this module's URL: the compiled CLI runs from a bundle elsewhere (scripts/bundle.mjs).
export const ZH_QUESTIONS_FILE = join(PACKAGE_ROOT, 'src', 'classify', 'data', 'zh-questions.jsonl');
export const ZH_DATASET = 'zh-plan';
export const EN_QUESTIONS_FILE = join(PACKAGE_ROOT, 'src', 'classify', 'data', 'en-questions.jsonl');
export const EN_DATASET = 'en-plan';

const LineSchema = z.object({ id: z.string().min(1), question: z.string().min(1), type: AdaptTypeSchema }).strict();
const ProvenanceSchema = z.object({ _provenance: z.string().min(1) }).strict();

export function readZhQuestions(file: URL | string = ZH_QUESTIONS_FILE): LabelledQuestion[] {
  return readWrittenQuestions(file, ZH_DATASET);
}

export function readEnQuestions(file: URL | string = EN_QUESTIONS_FILE): LabelledQuestion[] {
  return readWrittenQuestions(file, EN_DATASET);
}

/** A written-questions file (first line the provenance, then one `{id, question, type}` per line) as `dataset`. */
export function readWrittenQuestions(file: URL | string, dataset: string): LabelledQuestion[] {
  const where = typeof file === 'string' ? file : file.pathname;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (!ProvenanceSchema.safeParse(JSON.parse(lines[0] ?? '{}')).success)
    throw new InputError('first line must be {"_provenance": "…"}', `${where}:1`);
  return lines.slice(1).map((l, i) => {
    const r = LineSchema.safeParse(JSON.parse(l));
    if (!r.success) throw new InputError(r.error.issues[0]?.message ?? 'invalid line', `${where}:${i + 2}`);
    return {
      dataset,
      query: { id: r.data.id, text: r.data.question, askedAt: '2024-01-01T00:00:00.000Z' },
      gold: r.data.type,
      nativeType: r.data.type,
      isAbstention: r.data.type === 'abstention',
    };
  });
}
