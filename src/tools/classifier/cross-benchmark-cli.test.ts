// CLI: classifier train --datasets (split, metadata) and classifier eval --protocol leave-one-benchmark-out --json.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ArgumentsCamelCase, CommandModule } from 'yargs';
import { useTestData } from '../../../test/data-path.ts';
import { readOnnxMetadata } from '../../classify/onnx/hashed-classifier.ts';
import { loadOnnxClassifier } from '../../classify/onnx/load.ts';
import { META_FALLBACK_THRESHOLD, META_TRAINING_SET } from '../../classify/onnx/model-format.ts';
import { evalCommand, trainCommand } from './commands.ts';
import type { Classifier } from '../../core/interfaces.ts';

useTestData();
const dir = await mkdtemp(join(tmpdir(), 'adaptmr-xb-cli-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function capture(run: () => unknown): Promise<string> {
  const lines: string[] = [];
  const spy = vi
    .spyOn(console, 'log')
    .mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(' ')));
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.join('\n');
}
const call = <A>(cmd: CommandModule<object, A>, argv: Record<string, unknown>) =>
  cmd.handler!({ _: [], $0: 'adaptmr', ...argv } as unknown as ArgumentsCamelCase<A>);

describe('cross-benchmark classifier CLI', () => {
  it('train --datasets B --split calibration: the split only, named in the file, with a fitted fallback threshold', async () => {
    const model = join(dir, 'beam.onnx');
    const msg = await capture(() =>
      call(trainCommand, {
        datasets: 'beam-100k',
        out: model,
        seed: 42,
        split: 'calibration',
        fraction: 0.3,
        calibrate: true,
        epochs: 3,
      }),
    );
    expect(msg).toMatch(/on 84 questions of the 0\.3 calibration split/);
    const meta = await readOnnxMetadata(model);
    expect(JSON.parse(meta[META_TRAINING_SET]!).n).toBe(84);
    expect(Number(meta[META_FALLBACK_THRESHOLD])).toBeGreaterThanOrEqual(0.2);
    const clf: Classifier = await loadOnnxClassifier(model);
    expect(clf.excludedQuestionIds?.size).toBe(84);
    expect(clf.fallbackThreshold).toBe(Number(meta[META_FALLBACK_THRESHOLD]));
  });

  it('eval --protocol leave-one-benchmark-out --json: one row per held-out benchmark, per language, learning curve', async () => {
    const out = await capture(() =>
      call(evalCommand, {
        classifier: 'onnx',
        protocol: 'leave-one-benchmark-out',
        datasets: 'beam-100k,zh-plan,en-plan',
        seed: 42,
        json: true,
        calibrate: false,
        'learning-curve': true,
      }),
    );
    const r = JSON.parse(out);
    expect(r.benchmarks.map((b: { benchmark: string }) => b.benchmark)).toEqual(['beam', 'written']);
    for (const b of r.benchmarks) {
      expect(b.accuracy).toBeGreaterThanOrEqual(0);
      expect(b.macro_f1).toBeGreaterThanOrEqual(0);
    }
    const written = r.benchmarks[1];
    expect(written.n).toBe(225);
    expect(written.n_train).toBe(280);
    expect(written.languages.map((l: { language: string; n: number }) => [l.language, l.n])).toEqual([
      ['en', 100],
      ['zh', 125],
    ]);
    expect(r.learning_curve.map((p: { fraction: number }) => p.fraction)).toEqual([0.1, 0.25, 0.5, 0.75, 1]);
    expect(r.mean_accuracy).toBeCloseTo((r.benchmarks[0].accuracy + written.accuracy) / 2);
  });
});
