// Evaluation end to end on real LongMemEval questions: rules as-is, the oracle (gold type), k-fold ONNX (never
// testing on training questions), DuckDB storage and the heatmap files.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../../data/index.ts';
import { DEFAULT_FEATURE_SPEC } from '../../../classify/onnx/features.ts';
import { confusionChartSpec } from '../../../report/confusion-chart.ts';
import { evaluateClassifier } from './run-eval.ts';
import { labelledQuestions, type LabelledQuestion } from './questions.ts';
import { renderChart } from '../../../report/index.ts';
import { writeEvalResults } from '../../../store/classifier-eval-file.ts';
import { TEST_DATA_DIR } from '../../../../test/data-path.ts';

const dataDir = TEST_DATA_DIR;
let questions: LabelledQuestion[];
let dir: string;

beforeAll(async () => {
  // 20 per AdaptMR type (abstention has 30): a stratified sample of the real oracle split.
  const { instances } = await loadDataset({ name: 'longmemeval-oracle', sample: { perType: 20, seed: 1 } }, dataDir);
  questions = labelledQuestions(instances);
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-cls-eval-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('classifier evaluation', () => {
  it('scores the oracle as labelled gold type at 100%', async () => {
    const r = await evaluateClassifier({ classifier: 'oracle', questions });
    expect(r.label).toBe('oracle (gold type)');
    expect(r.upperBound).toBe(true);
    expect(r.metrics.accuracy).toBe(1);
    expect(r.abstention.flagged).toBe(r.abstention.n);
    expect(r.abstention.n).toBe(20);
  });

  it('rules: metrics agree with the predictions; abstention visibility is reported', async () => {
    const r = await evaluateClassifier({ classifier: 'rules', questions });
    expect(r.metrics.n).toBe(100);
    const correct = r.predictions.filter((p) => p.gold === p.predicted).length;
    expect(r.metrics.accuracy).toBeCloseTo(correct / 100, 12);
    expect(r.predictions.every((p) => p.source === 'rules' && p.latencyMs >= 0)).toBe(true);
    expect(r.abstention.n).toBe(20);
    expect(r.abstention.withSurfaceCue).toBeLessThanOrEqual(20);
    expect(r.withoutAbstention.n).toBe(80);
  });

  it('k-fold ONNX predicts each question once, from a model that did not see it', async () => {
    const train = { spec: { ...DEFAULT_FEATURE_SPEC, dim: 1 << 12 }, epochs: 5 };
    const r = await evaluateClassifier({ classifier: 'onnx', questions, folds: 3, seed: 5, train });
    expect(r.protocol).toBe('kfold');
    expect(r.predictions.map((p) => p.questionId)).toEqual(questions.map((q) => q.query.id));
    expect(new Set(r.predictions.map((p) => p.fold))).toEqual(new Set([0, 1, 2]));
    expect(r.metrics.n).toBe(100);
    const again = await evaluateClassifier({ classifier: 'onnx', questions, folds: 3, seed: 5, train });
    expect(again.predictions.map((p) => p.predicted)).toEqual(r.predictions.map((p) => p.predicted));
    await expect(evaluateClassifier({ classifier: 'rules', questions, folds: 3 })).rejects.toThrow(/trainable onnx/);

    const file = join(dir, 'eval.duckdb');
    await writeEvalResults(file, [r]);
    await writeEvalResults(file, [await evaluateClassifier({ classifier: 'oracle', questions })]);
    const db = await DuckDBInstance.create(file);
    const conn = await db.connect();
    const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS();
    expect(await rows('SELECT label, n, upper_bound FROM classifier_eval ORDER BY label')).toEqual([
      { label: 'onnx (3-fold CV)', n: 100, upper_bound: false },
      { label: 'oracle (gold type)', n: 100, upper_bound: true },
    ]);
    const [pred] = await rows(
      `SELECT count(*)::INTEGER AS n, count(latency_ms)::INTEGER AS lat FROM classifier_predictions WHERE eval_id = '${r.evalId}'`,
    );
    expect(pred).toEqual({ n: 100, lat: 100 });
    const [conf] = await rows(
      `SELECT sum(count)::INTEGER AS n FROM classifier_confusion WHERE eval_id = '${r.evalId}'`,
    );
    expect(conf).toEqual({ n: 100 });
    const [acc] = await rows(`SELECT accuracy FROM classifier_eval WHERE eval_id = '${r.evalId}'`);
    expect(acc?.accuracy).toBeCloseTo(r.metrics.accuracy, 12);
    conn.closeSync();
    db.closeSync();

    const chart = await renderChart(confusionChartSpec(r), join(dir, 'charts', 'onnx'));
    for (const f of [chart.svgPath, chart.pngPath]) expect((await stat(f)).size).toBeGreaterThan(1000);
  });
});
