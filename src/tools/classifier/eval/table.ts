/**
 * The trained classifier's table (README "Classifier" and src/classify/README.md): nested 5-fold CV on the pooled
 * training data (LongMemEval + LoCoMo + the committed Chinese questions), stratified by dataset × type, and
 * cross-dataset runs (train on one dataset plus the Chinese questions, test on the other), each model chosen by
 * inner CV on its own training part (train/select.ts). Outer predictions go through the exported ONNX file and
 * onnxruntime-node, as in use. Rows: per dataset and language, with the share of the remaining error that is
 * abstention (questions whose text does not show it) and the accuracy without abstention questions.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedOnnxClassifier } from '../../../classify/onnx/hashed-classifier.ts';
import { writeModel } from '../train/export.ts';
import { fitCandidate, RowCache, selectCandidate, type Candidate, type Selection } from '../train/select.ts';
import { predictAll, type Prediction } from './evaluate.ts';
import { stratifiedFolds } from './folds.ts';
import type { LabelledQuestion } from './questions.ts';

export interface TableRow {
  protocol: string;
  dataset: string;
  language: 'en' | 'zh' | 'all';
  n: number;
  accuracy: number;
  /** Errors whose gold type is abstention, as a share of all errors. */
  abstentionShareOfErrors: number;
  accuracyWithoutAbstention: number;
}

export interface TableResult {
  rows: TableRow[];
  selections: { protocol: string; fold: number | null; selection: Selection }[];
  /** Per protocol, dataset, native type (e.g. LongMemEval's `single-session-user`) and gold type: predicted-type counts. */
  byNativeType: {
    protocol: string;
    dataset: string;
    nativeType: string;
    gold: string;
    n: number;
    predicted: Record<string, number>;
  }[];
  /** Every outer prediction (for paired comparisons between table runs). */
  predictions: { protocol: string; dataset: string; id: string; gold: string; predicted: string }[];
}

export function byNativeType(protocol: string, preds: readonly Prediction[]): TableResult['byNativeType'] {
  const groups = new Map<string, TableResult['byNativeType'][number]>();
  for (const p of preds) {
    // LongMemEval's `_abs` questions keep their native type, so the gold type is part of the key.
    const key = `${p.dataset}\u0000${p.nativeType}\u0000${p.gold}`;
    let g = groups.get(key);
    if (!g) {
      g = { protocol, dataset: p.dataset, nativeType: p.nativeType, gold: p.gold, n: 0, predicted: {} };
      groups.set(key, g);
    }
    g.n += 1;
    g.predicted[p.predicted] = (g.predicted[p.predicted] ?? 0) + 1;
  }
  return [...groups.values()].sort(
    (a, b) =>
      a.dataset.localeCompare(b.dataset) || a.nativeType.localeCompare(b.nativeType) || a.gold.localeCompare(b.gold),
  );
}

const language = (text: string): 'en' | 'zh' => (/\p{Script=Han}/u.test(text) ? 'zh' : 'en');

export function rowOf(
  protocol: string,
  dataset: string,
  lang: TableRow['language'],
  preds: readonly (Prediction & { text: string })[],
): TableRow | undefined {
  const ps = preds.filter(
    (p) => (dataset === 'all' || p.dataset === dataset) && (lang === 'all' || language(p.text) === lang),
  );
  if (ps.length === 0) return undefined;
  const wrong = ps.filter((p) => p.predicted !== p.gold);
  const answerable = ps.filter((p) => p.gold !== 'abstention');
  return {
    protocol,
    dataset,
    language: lang,
    n: ps.length,
    accuracy: (ps.length - wrong.length) / ps.length,
    abstentionShareOfErrors: wrong.length ? wrong.filter((p) => p.gold === 'abstention').length / wrong.length : 0,
    accuracyWithoutAbstention: answerable.length
      ? answerable.filter((p) => p.predicted === p.gold).length / answerable.length
      : Number.NaN,
  };
}

async function predictWith(
  selection: Selection,
  train: readonly LabelledQuestion[],
  test: readonly LabelledQuestion[],
  cache: RowCache,
  seed: number,
  dir: string,
  name: string,
  fold: number | null,
) {
  const model = fitCandidate(selection.chosen, train, cache, seed);
  const file = join(dir, `${name}.onnx`);
  await writeModel(model, file);
  const clf = await HashedOnnxClassifier.load(file);
  const preds = await predictAll(clf, test, { fold, seed });
  return preds.map((p, i) => ({ ...p, text: test[i]?.query.text ?? '' }));
}

export interface TableInput {
  /** Labelled questions per dataset name (e.g. longmemeval-oracle, locomo, zh-plan). */
  datasets: Record<string, readonly LabelledQuestion[]>;
  /** Datasets used as cross-dataset test sets (the others, minus this one, train). */
  crossTest: readonly string[];
  folds: number;
  innerFolds: number;
  seed: number;
  /** The model-choice grid (default train/select.ts CANDIDATES). */
  candidates?: readonly Candidate[];
  log?: (line: string) => void;
}

export async function classifierTable(input: TableInput): Promise<TableResult> {
  const cache = new RowCache();
  const all = Object.values(input.datasets).flat();
  const rows: TableRow[] = [];
  const selections: TableResult['selections'] = [];
  const natives: TableResult['byNativeType'] = [];
  const predictions: TableResult['predictions'] = [];
  const keep = (protocol: string, preds: readonly Prediction[]) =>
    predictions.push(
      ...preds.map((p) => ({ protocol, dataset: p.dataset, id: p.questionId, gold: p.gold, predicted: p.predicted })),
    );
  const log = input.log ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), 'adaptmr-cls-table-'));
  try {
    // Nested CV on the pool.
    const fold = stratifiedFolds(
      all.map((q) => `${q.dataset}:${q.gold}`),
      input.folds,
      input.seed,
    );
    const cv: (Prediction & { text: string })[] = [];
    for (let f = 0; f < input.folds; f++) {
      const train = all.filter((_, i) => fold[i] !== f);
      const test = all.filter((_, i) => fold[i] === f);
      const selection = selectCandidate(train, cache, input.seed, input.innerFolds, input.candidates);
      selections.push({ protocol: 'nested-cv', fold: f, selection });
      log(
        `fold ${f + 1}/${input.folds}: chose ${selection.chosen.name} (inner accuracy ${JSON.stringify(selection.scores)})`,
      );
      cv.push(...(await predictWith(selection, train, test, cache, input.seed, dir, `cv-${f}`, f)));
    }
    const protocol = `${input.folds}-fold nested CV (pooled)`;
    natives.push(...byNativeType(protocol, cv));
    keep(protocol, cv);
    for (const d of ['all', ...Object.keys(input.datasets)]) {
      for (const lang of ['all', 'en', 'zh'] as const) {
        const r = rowOf(protocol, d, lang, cv);
        if (r && !(lang !== 'all' && r.n === rowOf(protocol, d, 'all', cv)?.n)) rows.push(r);
      }
    }
    // Cross-dataset.
    for (const testName of input.crossTest) {
      const test = input.datasets[testName] ?? [];
      const train = Object.entries(input.datasets)
        .filter(([n]) => n !== testName)
        .flatMap(([, qs]) => qs);
      const trainNames = Object.keys(input.datasets)
        .filter((n) => n !== testName)
        .join(' + ');
      const selection = selectCandidate(train, cache, input.seed, input.innerFolds, input.candidates);
      selections.push({ protocol: `cross → ${testName}`, fold: null, selection });
      log(`cross-dataset → ${testName}: chose ${selection.chosen.name}`);
      const preds = await predictWith(selection, train, test, cache, input.seed, dir, `cross-${testName}`, null);
      const crossProtocol = `cross-dataset (trained on ${trainNames})`;
      const r = rowOf(crossProtocol, testName, 'all', preds);
      if (r) rows.push(r);
      natives.push(...byNativeType(crossProtocol, preds));
      keep(crossProtocol, preds);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { rows, selections, byNativeType: natives, predictions };
}

const pct = (x: number) => (Number.isNaN(x) ? 'n/a' : `${(x * 100).toFixed(1)}%`);

export function tableMarkdown(rows: readonly TableRow[]): string {
  return [
    '| protocol | test data | language | n | accuracy | accuracy w/o abstention | abstention share of errors |',
    '|---|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.protocol} | ${r.dataset} | ${r.language} | ${r.n} | ${pct(r.accuracy)} | ${pct(r.accuracyWithoutAbstention)} | ${pct(r.abstentionShareOfErrors)} |`,
    ),
  ].join('\n');
}
