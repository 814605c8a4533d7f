// The one-hidden-layer MLP: it learns a small English + Chinese set, its ONNX export (MatMul → Add → Relu → MatMul →
// Add → Softmax) run by onnxruntime-node gives the TypeScript forward pass's probabilities, the same seed gives the
// same file, and `--model` loading recognises its kind.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEATURE_SPEC, sparseRow, specWithCues } from '../../../classify/onnx/features.ts';
import { HashedOnnxClassifier } from '../../../classify/onnx/hashed-classifier.ts';
import { loadOnnxClassifier } from '../../../classify/onnx/load.ts';
import { KIND_HASHED_MLP, META_KIND } from '../../../classify/onnx/model-format.ts';
import { readOnnxMetadata } from '../../../classify/onnx/hashed-classifier.ts';
import { ADAPT_TYPES } from '../../../core/types.ts';
import { mlpModelToOnnx, writeModel } from './export.ts';
import { predictMlpRow, trainMlpRows } from './mlp.ts';
import { trainLinearRows } from './train.ts';
import { BILINGUAL_TRAIN } from './testing/bilingual-train.ts';

const SPEC = specWithCues({ ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 });
const TRAIN = BILINGUAL_TRAIN;
const rows = TRAIN.map((e) => sparseRow(e.text, SPEC));
const types = TRAIN.map((e) => e.type);
const train = (seed: number, epochs = 60) =>
  trainMlpRows(rows, types, { spec: SPEC, hidden: 8, epochs, seed, learningRate: 0.01, batchSize: 4 });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-mlp-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('MLP classifier', () => {
  it('refuses feature rows and labels of different lengths (the linear trainer too)', () => {
    const opts = { spec: SPEC, hidden: 8, epochs: 1, seed: 1, learningRate: 0.01, batchSize: 4 };
    expect(() => trainMlpRows(rows, types.slice(1), opts)).toThrow(
      `${rows.length} feature rows but ${rows.length - 1} labels`,
    );
    expect(() => trainLinearRows(rows.slice(1), types, { spec: SPEC, epochs: 1, seed: 1 })).toThrow(
      `${rows.length - 1} feature rows but ${rows.length} labels`,
    );
  });
  it('learns the training set; onnxruntime gives the TypeScript probabilities', async () => {
    const model = train(3);
    const file = join(dir, 'mlp.onnx');
    await writeModel(model, file);
    expect((await readOnnxMetadata(file))[META_KIND]).toBe(KIND_HASHED_MLP);
    const clf = await loadOnnxClassifier(file);
    expect(clf).toBeInstanceOf(HashedOnnxClassifier);
    for (const [i, ex] of TRAIN.entries()) {
      const r = await clf.classify({ id: 'q', text: ex.text, askedAt: '2023-01-01T00:00:00Z' });
      const ts = predictMlpRow(model, rows[i]!);
      ADAPT_TYPES.forEach((t, k) => expect(r.probs[t]).toBeCloseTo(ts[k] ?? Number.NaN, 5));
      expect(r.type).toBe(ex.type);
    }
  });

  it('the same seed gives the same file; another seed another one', () => {
    const a = Buffer.from(mlpModelToOnnx(train(1, 3)));
    expect(a.equals(Buffer.from(mlpModelToOnnx(train(1, 3))))).toBe(true);
    expect(a.equals(Buffer.from(mlpModelToOnnx(train(2, 3))))).toBe(false);
  });
});
