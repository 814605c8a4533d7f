// Trainable ONNX classifier: train → export → onnxruntime-node inference equals the TypeScript forward pass;
// determinism; metadata contract; the Hugging Face layout with a tiny model built here; bad files fail clearly.
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../core/errors.ts';
import { classifiers } from '../../../classify/registry.ts';
import { DEFAULT_FEATURE_SPEC } from '../../../classify/onnx/features.ts';
import { linearModelToOnnx, writeLinearModel } from './export.ts';
import { HashedOnnxClassifier, readOnnxMetadata } from '../../../classify/onnx/hashed-classifier.ts';
import { HfOnnxClassifier } from '../../../classify/onnx/hf-classifier.ts';
import { loadOnnxClassifier } from '../../../classify/onnx/load.ts';
import { predictLinear, trainLinear, type LabelledText } from './train.ts';
import { writeTinyHfModel } from '../../../classify/onnx/testing/tiny-hf-model.ts';

const q = (text: string) => ({ id: 'q', text, askedAt: '2023-05-01T00:00:00Z' });
const SMALL = { ...DEFAULT_FEATURE_SPEC, dim: 1 << 12 };
const TRAIN: LabelledText[] = [
  { text: 'When did I visit the museum?', type: 'temporal' },
  { text: 'When did I buy the bike?', type: 'temporal' },
  { text: 'What is my current address now?', type: 'update' },
  { text: 'Where do I work now?', type: 'update' },
  { text: 'How many plants did I buy in total?', type: 'multi-hop' },
  { text: 'How many trips did I take in total?', type: 'multi-hop' },
  { text: 'What is the name of my dog?', type: 'factual' },
  { text: 'What is the name of my sister?', type: 'factual' },
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-onnx-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('hashed n-gram ONNX model', () => {
  it('onnxruntime gives the same probabilities as the TypeScript forward pass, and learns the training set', async () => {
    const model = trainLinear(TRAIN, { spec: SMALL, epochs: 40, seed: 7 });
    const file = join(dir, 'm.onnx');
    await writeLinearModel(model, file);
    const clf = await HashedOnnxClassifier.load(file);
    expect(clf.spec).toEqual(SMALL);
    for (const ex of TRAIN) {
      const r = await clf.classify(q(ex.text));
      const ts = predictLinear(model, ex.text);
      model.labels.forEach((t, k) => expect(r.probs[t]).toBeCloseTo(ts[k] as number, 5));
      expect(r.type).toBe(ex.type);
      expect(r.source).toBe('model');
    }
    const batch = await clf.classifyBatch(['When did I go?', 'How many in total?']);
    expect(batch.map((b) => b.type)).toEqual(['temporal', 'multi-hop']);
  });

  it('is deterministic for a seed and records its input contract in metadata_props', async () => {
    const a = linearModelToOnnx(trainLinear(TRAIN, { spec: SMALL, epochs: 5, seed: 3 }));
    const b = linearModelToOnnx(trainLinear(TRAIN, { spec: SMALL, epochs: 5, seed: 3 }));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const file = join(dir, 'meta.onnx');
    await writeFile(file, a);
    const meta = await readOnnxMetadata(file);
    expect(JSON.parse(meta['adaptmr.features'] ?? '')).toEqual(SMALL);
    expect(JSON.parse(meta['adaptmr.labels'] ?? '')).toEqual([
      'factual',
      'temporal',
      'update',
      'multi-hop',
      'abstention',
    ]);
    expect(meta['adaptmr.feature_contract']).toMatch(/FNV-1a 32-bit/);
  });

  it('a bad model file fails with an InputError naming the file', async () => {
    const bad = join(dir, 'bad.onnx');
    await writeFile(bad, 'this is not a protobuf at all, just some text');
    await expect(loadOnnxClassifier(bad)).rejects.toThrow(InputError);
    await expect(loadOnnxClassifier(bad)).rejects.toThrow(bad);
    await expect(loadOnnxClassifier(join(dir, 'missing.onnx'))).rejects.toThrow(/missing\.onnx: model not found/);
    // Without a model file, the shipped default (calibration/classifier-default.onnx).
    await expect(classifiers.create('onnx', {}, {})).resolves.toMatchObject({
      file: expect.stringMatching(/classifier-default\.onnx$/),
    });
  });
});

describe('Hugging Face layout (tiny model built here)', () => {
  const labels = [
    'single-session-user',
    'temporal-reasoning',
    'knowledge-update',
    'multi-session',
    'single-session-preference',
  ];

  it('tokenises, runs the graph and maps id2label (native LongMemEval labels) to AdaptMR types', async () => {
    const hf = join(dir, 'hf');
    await writeTinyHfModel(hf, {
      labels,
      words: { when: [1, 4], now: [2, 4], total: [3, 4], favourite: [4, 6] },
      tokenTypeIds: true,
    });
    const clf = await loadOnnxClassifier(hf);
    expect(clf).toBeInstanceOf(HfOnnxClassifier);
    // "[CLS] when did i go ? [SEP]": 7 tokens, only "when" has an embedding (4 on temporal) → logits (0, 4/7, 0, 0, 0).
    const r = await clf.classify(q('When did I go?'));
    const e = Math.exp(4 / 7);
    expect(r.probs.temporal).toBeCloseTo(e / (e + 4), 6);
    // factual = single-session-user + single-session-preference (two logits of 0).
    expect(r.probs.factual).toBeCloseTo(2 / (e + 4), 6);
    expect(r.probs.abstention).toBe(0);
    expect(r.type).toBe('factual');
    // "[CLS] favourite [SEP]": preference logit 2 → factual wins.
    const f = await clf.classify(q('favourite'));
    expect(f.type).toBe('factual');
    expect(f.probs.factual).toBeCloseTo((1 + Math.exp(2)) / (4 + Math.exp(2)), 6);
    // The registry path and a direct model.onnx path reach the same model.
    const viaRegistry = await classifiers.create('onnx', { model: join(hf, 'model.onnx') }, {});
    expect((await viaRegistry.classify(q('total now total'), { seed: 1, calls: [] })).type).toBe('multi-hop');
  });

  it('works without token_type_ids and rejects unknown labels naming config.json', async () => {
    const hf2 = join(dir, 'hf2');
    await writeTinyHfModel(hf2, {
      labels: ['factual', 'temporal', 'update', 'multi-hop', 'abstention'],
      words: { ever: [4, 3] },
    });
    const r = await (await loadOnnxClassifier(hf2)).classify(q('ever'));
    expect(r.type).toBe('abstention');
    const hf3 = join(dir, 'hf3');
    await writeTinyHfModel(hf3, { labels: ['factual', 'weather'], words: {} });
    await expect(loadOnnxClassifier(hf3)).rejects.toThrow(/config\.json: id2label\.1 = "weather"/);
    const notLayout = join(dir, 'empty');
    await mkdir(notLayout, { recursive: true });
    await expect(loadOnnxClassifier(notLayout)).rejects.toThrow(/not the Hugging Face layout/);
    expect((await readFile(join(hf2, 'config.json'), 'utf8')).includes('id2label')).toBe(true);
  });
});
