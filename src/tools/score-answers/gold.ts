/**
 * The gold answers a predictions file needs, read through the data layer: a light catalog pass first (so an
 * unknown question id fails naming its line before any question is decoded), then only those questions, without
 * their haystacks.
 */
import type { DatasetName } from '../../core/config.ts';
import { InputError } from '../../core/errors.ts';
import { loadQuestions, readCatalog, resolveDataset } from '../../data/index.ts';
import type { PredictionLine } from './predictions.ts';
import type { GoldAnswer } from './score.ts';

export async function goldFor(
  lines: readonly PredictionLine[],
  dataset: DatasetName,
  dataDir: string,
  file: string,
): Promise<Map<string, GoldAnswer>> {
  const source = resolveDataset({ name: dataset }, dataDir);
  const known = new Set((await readCatalog(source)).map((c) => c.questionId));
  for (const l of lines) {
    if (!known.has(l.questionId)) {
      const hint =
        dataset === 'locomo' && !l.questionId.includes(':')
          ? ' (LoCoMo ids are "<sample_id>:q<index>", e.g. conv-26:q0)'
          : '';
      throw new InputError(`question_id "${l.questionId}" is not in ${dataset}${hint}`, `${file}:${l.line}`);
    }
  }
  const questionIds = [...new Set(lines.map((l) => l.questionId))];
  const { questions } = await loadQuestions({ name: dataset, questionIds }, dataDir);
  const protocol = dataset === 'locomo' ? 'locomo' : 'longmemeval';
  return new Map(
    questions.map((i) => [
      i.query.id,
      {
        protocol,
        question: i.query.text,
        nativeType: i.gold.nativeType,
        adaptType: i.gold.type,
        answer: i.gold.answer,
      },
    ]),
  );
}
