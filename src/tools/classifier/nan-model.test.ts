/**
 * A classifier model that cannot classify is refused by `adaptmr classify` and `adaptmr classifier eval` in one line,
 * as a run refuses it: a trained hashed model whose weights hold NaN when it loads (its initializers are checked),
 * and a Hugging Face model whose output is NaN for a question (a NaN embedding row) when it answers — never a
 * prediction with NaN probabilities printed, scored or routed. English and Chinese questions.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyHfModel } from '../../classify/onnx/testing/tiny-hf-model.ts';
import { ADAPT_TYPES } from '../../core/types.ts';
import { REPO_ROOT } from '../../run/record/provenance.ts';
import { DEFAULT_FEATURE_SPEC } from '../../classify/onnx/features.ts';
import { writeLinearModel } from './train/export.ts';
import { BILINGUAL_TRAIN } from './train/testing/bilingual-train.ts';
import { trainLinear } from './train/train.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-nan-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; first: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'adaptmr.js'), ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        first: stderr.split('\n').find((l) => l.trim() !== '' && !l.startsWith('adaptmr: dist/')) ?? '',
      }),
    );
  });
}

const good = join(dir, 'good.onnx');
const nan = join(dir, 'nan.onnx');
const hf = join(dir, 'hf-nan');
beforeAll(async () => {
  const model = trainLinear(BILINGUAL_TRAIN, { spec: { ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 }, epochs: 10, seed: 3 });
  await writeLinearModel(model, good);
  model.weights[7] = Number.NaN;
  await writeLinearModel(model, nan);
  // "when" (and only it) maps to a NaN embedding: questions with it get NaN logits.
  await writeTinyHfModel(hf, { labels: [...ADAPT_TYPES], words: { when: [1, Number.NaN], now: [2, 3] } });
  writeFileSync(join(dir, 'questions.txt'), 'Where do I live now?\n我现在住在哪里？\n');
}, 60_000);

describe('a classifier model with NaN weights', () => {
  it('classify: the trained model is refused at load, naming the file and the weight; a good one classifies', async () => {
    const ok = await cli([
      'classify',
      '--classifier',
      'onnx',
      '--model',
      good,
      'Where do I live now?',
      '我现在住在哪里？',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const r = await cli([
      'classify',
      '--classifier',
      'onnx',
      '--model',
      nan,
      'Where do I live now?',
      '我现在住在哪里？',
    ]);
    expect(r.first).toMatch(
      /^error: .*nan\.onnx: weights hold NaN \(initializer W, element 7\); retrain the model or restore the file$/u,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).not.toMatch(/NaN/u);
  }, 60_000);

  it('classifier eval: refused the same way, before any question', async () => {
    const r = await cli(['classifier', 'eval', '--classifier', 'onnx', '--model', nan, '--dataset', 'locomo']);
    expect(r.first).toMatch(/^error: .*nan\.onnx: weights hold NaN \(initializer W, element 7\)/u);
    expect(r.code).toBe(2);
  }, 120_000);

  it('a model whose output is NaN for a question: one line naming the classifier and the question', async () => {
    const classify = await cli([
      'classify',
      '--classifier',
      'onnx',
      '--model',
      hf,
      'Where do I live now?',
      'When did I move?',
    ]);
    expect(classify.first).toMatch(
      /^error: .*hf-nan: classifier onnx gave unusable probabilities \(probability of \w+ is NaN\) for question q2$/u,
    );
    expect(classify.code).toBe(2);
    const evaluated = await cli(['classifier', 'eval', '--classifier', 'onnx', '--model', hf, '--dataset', 'locomo']);
    expect(evaluated.first).toMatch(
      /^error: classifier onnx failed on question .*: .*hf-nan: classifier onnx gave unusable probabilities \(probability of \w+ is NaN\)/u,
    );
    expect(evaluated.code).toBe(2);
    expect(evaluated.stderr).not.toMatch(/^\s{4}at /mu);
  }, 180_000);
});
