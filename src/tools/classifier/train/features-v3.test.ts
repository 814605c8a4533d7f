// Feature spec v3 (hashed n-grams + rules cues + the offline SIF sentence vector): the word-vector block is the
// embedder's vector times the scale, Chinese included; train → ONNX → onnxruntime-node gives the TypeScript
// probabilities; a model naming other word vectors fails to load with its file name.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_FEATURE_SPEC,
  denseFeatures,
  featureWidth,
  specWithWordVectors,
} from '../../../classify/onnx/features.ts';
import { HashedOnnxClassifier } from '../../../classify/onnx/hashed-classifier.ts';
import { cueIds } from '../../../classify/rules.ts';
import { createWinkSifEmbedder } from '../../../index/embedders/wink-sif.ts';
import { ADAPT_TYPES } from '../../../core/types.ts';
import { linearModelToOnnx, writeLinearModel } from './export.ts';
import { predictLinear, trainLinear } from './train.ts';
import { BILINGUAL_TRAIN } from './testing/bilingual-train.ts';

const SMALL_V3 = specWithWordVectors({ ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 }, { scale: 2 });
const TRAIN = BILINGUAL_TRAIN;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-v3-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('feature spec v3', () => {
  it('appends scale × the SIF sentence vector after the cues, for English and Chinese', () => {
    const wv = createWinkSifEmbedder();
    expect(featureWidth(SMALL_V3)).toBe((1 << 10) + cueIds().length + wv.dim);
    for (const text of ['Where do I live now?', '我现在住在哪里？']) {
      const row = denseFeatures([text], SMALL_V3);
      const block = row.subarray(SMALL_V3.dim + SMALL_V3.cues.length);
      const v = wv.embedOne(text);
      expect(block.length).toBe(v.length);
      v.forEach((x, j) => expect(block[j]).toBeCloseTo(2 * x, 6));
      expect(Math.hypot(...block)).toBeCloseTo(2, 5);
    }
  });

  it('an empty hashed block (dim 0) leaves cues + word vectors', () => {
    const spec = specWithWordVectors({ ...DEFAULT_FEATURE_SPEC, dim: 0 });
    const row = denseFeatures(['When did I move?'], spec);
    expect(row.length).toBe(cueIds().length + spec.wordVectors.dim);
    expect(row[spec.cues.indexOf('temporal:\\bwhen\\b')]).toBe(1);
  });

  it('trains, exports and runs through onnxruntime with the same probabilities', async () => {
    const model = trainLinear(TRAIN, { spec: SMALL_V3, epochs: 40, seed: 5, lazy: true });
    const file = join(dir, 'v3.onnx');
    await writeLinearModel(model, file);
    const clf = await HashedOnnxClassifier.load(file);
    expect(clf.spec).toEqual(SMALL_V3);
    for (const ex of TRAIN) {
      const r = await clf.classify({ id: 'q', text: ex.text, askedAt: '2023-01-01T00:00:00Z' });
      const ts = predictLinear(model, ex.text);
      ADAPT_TYPES.forEach((t, k) => expect(r.probs[t]).toBeCloseTo(ts[k] ?? Number.NaN, 5));
      expect(r.type).toBe(ex.type);
    }
  });

  it('a model naming other word vectors fails with the file name', async () => {
    const model = trainLinear(TRAIN.slice(0, 2), { spec: SMALL_V3, epochs: 1, lazy: true });
    const file = join(dir, 'other.onnx');
    await writeFile(
      file,
      linearModelToOnnx({
        ...model,
        spec: { ...SMALL_V3, wordVectors: { ...SMALL_V3.wordVectors, embedder: 'other-vectors' } },
      }),
    );
    await expect(HashedOnnxClassifier.load(file)).rejects.toThrow(/other\.onnx.*other-vectors/);
  });
});
