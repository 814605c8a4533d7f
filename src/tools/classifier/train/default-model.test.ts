/**
 * The shipped calibration/classifier-default.onnx is what its committed command builds: the test rebuilds it from
 * the datasets (full tier) and compares the training set's content hash in both files' metadata and the hash of
 * both models' predictions on the fixture questions.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DATA_DIR } from '../../../../test/data-path.ts';
import { HashedOnnxClassifier, readOnnxMetadata } from '../../../classify/onnx/hashed-classifier.ts';
import { DEFAULT_ONNX_MODEL } from '../../../classify/registry.ts';
import { META_FALLBACK_THRESHOLD, META_TRAINING_SET } from '../../../classify/onnx/model-format.ts';
import { defaultModelSources, FIXTURE_QUESTIONS, predictionHash } from './default-model.ts';
import { writeModel } from './export.ts';
import { DEFAULT_RECIPE } from './recipe.ts';
import { trainCombined } from './train-combined.ts';

const dir = await mkdtemp(join(tmpdir(), 'adaptmr-default-model-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('calibration/classifier-default.onnx', () => {
  it('is rebuilt by its command: same training-set hash, same predictions on the fixtures', async () => {
    expect(existsSync(DEFAULT_ONNX_MODEL)).toBe(true);
    const r = await trainCombined({
      names: defaultModelSources(),
      dataDir: TEST_DATA_DIR,
      recipe: DEFAULT_RECIPE,
      seed: 42,
    });
    const rebuilt = join(dir, 'rebuilt.onnx');
    await writeModel(r.model, rebuilt, r.metadata);
    const shipped = await readOnnxMetadata(DEFAULT_ONNX_MODEL);
    expect(JSON.parse(shipped[META_TRAINING_SET] ?? '{}').sha256).toBe(r.set.sha256);
    expect(shipped[META_FALLBACK_THRESHOLD]).toBe(String(r.calibration.fallbackThreshold));
    const a = await predictionHash(await HashedOnnxClassifier.load(DEFAULT_ONNX_MODEL));
    const b = await predictionHash(await HashedOnnxClassifier.load(rebuilt));
    expect(a).toBe(b);
    // The hash reads the predictions: a model predicting otherwise hashes otherwise.
    expect(await predictionHash(await HashedOnnxClassifier.load(rebuilt), FIXTURE_QUESTIONS.slice(1))).not.toBe(b);
  }, 900_000);
});
