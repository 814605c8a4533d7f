// Feature spec v2 (hashed n-grams + rules cue matches): row layout, ONNX round trip through onnxruntime-node with
// lazy Adam, a model whose cue list the rules no longer have fails naming the file; the Chinese question file loads
// with its provenance line; nested-CV selection picks from the grid without touching the test part.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_FEATURE_SPEC,
  denseFeatures,
  featureWidth,
  sparseRow,
  specWithCues,
} from '../../../classify/onnx/features.ts';
import { HashedOnnxClassifier } from '../../../classify/onnx/hashed-classifier.ts';
import { cueIds } from '../../../classify/rules.ts';
import { ADAPT_TYPES } from '../../../core/types.ts';
import { linearModelToOnnx, writeLinearModel } from './export.ts';
import { predictLinear, trainLinear } from './train.ts';
import { readZhQuestions } from './zh-questions.ts';
import { CANDIDATES, RowCache, selectCandidate } from './select.ts';
import { byNativeType, rowOf } from '../eval/table.ts';
import { BILINGUAL_TRAIN } from './testing/bilingual-train.ts';

const SMALL_V2 = specWithCues({ ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 });
const TRAIN = BILINGUAL_TRAIN;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-v2-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('feature spec v2', () => {
  it('appends one binary entry per rules cue after the L2-normalised hashed block', () => {
    expect(featureWidth(SMALL_V2)).toBe((1 << 10) + cueIds().length);
    const row = sparseRow('When did I move?', SMALL_V2);
    const cueEntries = [...row.indices].filter((i) => i >= SMALL_V2.dim).map((i) => SMALL_V2.cues[i - SMALL_V2.dim]);
    expect(cueEntries).toEqual(['temporal:\\bwhen\\b']);
    const dense = denseFeatures(['When did I move?'], SMALL_V2);
    expect(Math.hypot(...dense.subarray(0, SMALL_V2.dim))).toBeCloseTo(1, 6);
    expect(dense[SMALL_V2.dim + SMALL_V2.cues.indexOf('temporal:\\bwhen\\b')]).toBe(1);
  });

  it('trains (lazy Adam), exports and runs through onnxruntime with the same probabilities, English and Chinese', async () => {
    const model = trainLinear(TRAIN, { spec: SMALL_V2, epochs: 40, seed: 5, lazy: true });
    const file = join(dir, 'v2.onnx');
    await writeLinearModel(model, file);
    const clf = await HashedOnnxClassifier.load(file);
    expect(clf.spec).toEqual(SMALL_V2);
    for (const ex of TRAIN) {
      const r = await clf.classify({ id: 'q', text: ex.text, askedAt: '2023-01-01T00:00:00Z' });
      const ts = predictLinear(model, ex.text);
      ADAPT_TYPES.forEach((t, k) => expect(r.probs[t]).toBeCloseTo(ts[k] ?? Number.NaN, 5));
      expect(r.type).toBe(ex.type);
    }
    expect(
      Buffer.from(linearModelToOnnx(trainLinear(TRAIN, { spec: SMALL_V2, epochs: 3, seed: 1, lazy: true }))).equals(
        Buffer.from(linearModelToOnnx(trainLinear(TRAIN, { spec: SMALL_V2, epochs: 3, seed: 1, lazy: true }))),
      ),
    ).toBe(true);
  });

  it('a model naming a cue the rules do not have fails with the file name', async () => {
    const model = trainLinear(TRAIN.slice(0, 2), {
      spec: { ...SMALL_V2, cues: [...SMALL_V2.cues, 'temporal:no-such-cue'] },
      epochs: 1,
      lazy: true,
    });
    const file = join(dir, 'stale.onnx');
    await writeFile(file, linearModelToOnnx(model));
    await expect(HashedOnnxClassifier.load(file)).rejects.toThrow(/stale\.onnx.*no-such-cue/);
  });
});

describe('Chinese questions and model selection', () => {
  it('loads 25 questions per type with the provenance line', () => {
    const zh = readZhQuestions();
    expect(zh).toHaveLength(125);
    for (const t of ADAPT_TYPES) expect(zh.filter((q) => q.gold === t)).toHaveLength(25);
    expect(zh.every((q) => /\p{Script=Han}/u.test(q.query.text))).toBe(true);
  });

  it('inner CV scores every candidate on the training part only and picks the best', () => {
    const zh = readZhQuestions();
    const cache = new RowCache();
    const small = CANDIDATES.map((c) => ({
      ...c,
      spec:
        c.spec.version === 'adaptmr-hash-v2'
          ? specWithCues({ ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 })
          : { ...c.spec, dim: 1 << 10 },
    }));
    const s = selectCandidate(zh, cache, 3, 3, small);
    expect(Object.keys(s.scores)).toEqual(small.map((c) => c.name));
    expect(s.scores[s.chosen.name]).toBe(Math.max(...Object.values(s.scores)));
  });

  it('table rows: accuracy, accuracy without abstention, abstention share of errors', () => {
    const p = (gold: string, predicted: string, text = 'x') =>
      ({
        questionId: 'q',
        dataset: 'd',
        fold: 0,
        gold,
        nativeType: gold,
        isAbstention: gold === 'abstention',
        predicted,
        probs: {},
        source: 'model',
        route: null,
        latencyMs: 0,
        text,
      }) as never;
    const r = rowOf('cv', 'all', 'all', [
      p('factual', 'factual'),
      p('abstention', 'factual'),
      p('abstention', 'factual'),
      p('temporal', 'factual'),
    ]);
    expect(r).toMatchObject({ n: 4, accuracy: 0.25, accuracyWithoutAbstention: 0.5 });
    expect(r?.abstentionShareOfErrors).toBeCloseTo(2 / 3, 12);
  });

  it('per native type: an _abs question keeps its native type but is counted under its own gold type', () => {
    const p = (nativeType: string, gold: string, predicted: string) =>
      ({
        questionId: 'q',
        dataset: 'd',
        fold: 0,
        gold,
        nativeType,
        isAbstention: gold === 'abstention',
        predicted,
        probs: {},
        source: 'model',
        route: null,
        latencyMs: 0,
      }) as never;
    const g = byNativeType('cv', [
      p('single-session-user', 'factual', 'factual'),
      p('single-session-user', 'abstention', 'factual'),
      p('single-session-user', 'factual', 'temporal'),
    ]);
    expect(g.map((x) => [x.nativeType, x.gold, x.n, x.predicted])).toEqual([
      ['single-session-user', 'abstention', 1, { factual: 1 }],
      ['single-session-user', 'factual', 2, { factual: 1, temporal: 1 }],
    ]);
  });
});
