/**
 * The combined classifier training set: questions of several benchmarks and of the project's written English and
 * Chinese questions, each labelled with its benchmark (the datasets of one benchmark are one family, e.g. LongMemEval
 * oracle/S/M; the written questions another), its language and its AdaptMR type through the benchmark's own type
 * map (applied by its loader). Deduplicated by normalised question text: the first occurrence in the order the
 * datasets are named wins (LongMemEval oracle and S hold the same 500 questions; a larger tier may repeat some of a
 * smaller one's). Questions without one of the five types (LoCoMo-Plus, native types reported apart) are left out
 * and counted. The content hash names the set in a trained model's metadata.
 */
import { createHash } from 'node:crypto';
import { datasetEntry, datasetNames } from '../../../core/benchmarks-installed.ts';
import type { DatasetName } from '../../../core/config.ts';
import { InputError } from '../../../core/errors.ts';
import { loadQuestions, resolveDataDir } from '../../../data/index.ts';
import { normaliseText } from '../../../classify/onnx/features.ts';
import { labelledQuestions, type LabelledQuestion } from '../eval/questions.ts';
import { calibrationSplit } from '../../calibrate/calibrate.ts';
import { EN_DATASET, readEnQuestions, readZhQuestions, ZH_DATASET } from './zh-questions.ts';

export type Language = 'en' | 'zh';

export interface BenchmarkQuestion extends LabelledQuestion {
  benchmark: string;
  language: Language;
}

/** Every name `--datasets` takes: the benchmarks' datasets and the two written sets. */
export function trainingSources(): string[] {
  return [...datasetNames(), ZH_DATASET, EN_DATASET];
}

/** A dataset's benchmark: versions of one benchmark (same questions or the same authors' phrasing) share one. */
export function benchmarkOf(dataset: string): string {
  if (dataset === ZH_DATASET || dataset === EN_DATASET) return 'written';
  return datasetEntry(dataset)?.benchmark.name ?? dataset;
}

/** A question with a Han character is Chinese; the rest are English (the benchmarks here hold no third language). */
export function languageOf(text: string): Language {
  return /\p{Script=Han}/u.test(text) ? 'zh' : 'en';
}

export interface CombinedSet {
  questions: BenchmarkQuestion[];
  /** Per dataset: questions loaded, questions with one of the five types, duplicates dropped. */
  sources: { dataset: string; loaded: number; typed: number; duplicates: number }[];
  /** Duplicates whose type differs from the kept occurrence's. */
  conflicts: number;
  /** sha256 of the set's lines (benchmark, dataset, id, type, normalised text), in order. */
  sha256: string;
  /** With a split: the ids of every question of the splits, duplicates included (a run leaves them all out). */
  splitIds?: string[];
}

export function parseSourceList(text: string, flag: string): string[] {
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0) throw new InputError('name at least one dataset', flag);
  for (const n of names)
    if (!trainingSources().includes(n))
      throw new InputError(`unknown dataset "${n}"; known: ${trainingSources().join(', ')}`, flag);
  return names;
}

async function loadSource(
  name: string,
  dataDir: string | undefined,
): Promise<{ loaded: number; typed: LabelledQuestion[] }> {
  if (name === ZH_DATASET || name === EN_DATASET) {
    const typed = name === ZH_DATASET ? readZhQuestions() : readEnQuestions();
    return { loaded: typed.length, typed };
  }
  const { questions } = await loadQuestions({ name: name as DatasetName }, resolveDataDir({ flag: dataDir }));
  return { loaded: questions.length, typed: labelledQuestions(questions) };
}

/**
 * Loads and combines `names` (in order), deduplicating by normalised question text. `split`: keep only each
 * dataset's seeded calibration split (the one `adaptmr calibrate` and `classifier train --split calibration` use).
 */
export async function combinedTrainingSet(
  names: readonly string[],
  dataDir?: string,
  split?: { fraction: number; seed: number },
): Promise<CombinedSet> {
  const seen = new Map<string, BenchmarkQuestion>();
  const sources: CombinedSet['sources'] = [];
  let conflicts = 0;
  const splitIds: string[] = [];
  for (const name of names) {
    const source = await loadSource(name, dataDir);
    const loaded = source.loaded;
    const typed = split ? calibrationPart(source.typed, split) : source.typed;
    if (split) splitIds.push(...typed.map((q) => q.query.id));
    let duplicates = 0;
    for (const q of typed) {
      const key = normaliseText(q.query.text);
      const kept = seen.get(key);
      if (kept) {
        duplicates += 1;
        if (kept.gold !== q.gold) conflicts += 1;
        continue;
      }
      seen.set(key, { ...q, benchmark: benchmarkOf(q.dataset), language: languageOf(q.query.text) });
    }
    sources.push({ dataset: name, loaded, typed: typed.length, duplicates });
  }
  const questions = [...seen.values()];
  return { questions, sources, conflicts, sha256: trainingSetHash(questions), ...(split ? { splitIds } : {}) };
}

function calibrationPart(qs: LabelledQuestion[], split: { fraction: number; seed: number }): LabelledQuestion[] {
  const ids = new Set(
    calibrationSplit(
      qs.map((q) => ({ questionId: q.query.id, adaptType: q.gold })),
      split.fraction,
      split.seed,
    ),
  );
  return qs.filter((q) => ids.has(q.query.id));
}

/** sha256 over one line per question: benchmark, dataset, id, type and normalised text, tab-separated, in order. */
export function trainingSetHash(questions: readonly BenchmarkQuestion[]): string {
  const h = createHash('sha256');
  for (const q of questions)
    h.update(`${q.benchmark}\t${q.dataset}\t${q.query.id}\t${q.gold}\t${normaliseText(q.query.text)}\n`);
  return h.digest('hex');
}
