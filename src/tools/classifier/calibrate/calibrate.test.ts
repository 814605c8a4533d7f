// Classifier calibration: ECE and bins on hand-computed cases, the two fits recover what the data say, the rules
// classifier reads a calibration file (probabilities, source, excluded ids), the adaptmr method excludes them, and
// the calibrate command writes a file + reliability chart from a real dataset.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ArgumentsCamelCase } from 'yargs';
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';
import {
  applyCalibration,
  readClassifierCalibration,
  type ClassifierCalibrationFile,
} from '../../../classify/calibration.ts';
import { RulesClassifier } from '../../../classify/rules.ts';
import { createAdaptmrMethod, AdaptmrOptionsSchema } from '../../../routing/adaptmr-method.ts';
import { expectedCalibrationError, reliabilityBins } from './ece.ts';
import { fitMatrix, fitTemperature, meanNll, type CalibrationExample } from './fit.ts';
import { calibrateClassifierCommand } from './commands.ts';
import { useTestData } from '../../../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-cls-cal-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const zero = (): Record<AdaptType, number> =>
  Object.fromEntries(ADAPT_TYPES.map((t) => [t, 0])) as Record<AdaptType, number>;
const scores = (partial: Partial<Record<AdaptType, number>>) => ({ ...zero(), ...partial });

describe('ECE', () => {
  it('bins top-label confidence in 10 equal-width bins and weights |acc − conf| by bin size', () => {
    // bin (0.8, 0.9]: conf 0.9, 0.9 → acc 1/2 → |0.5 − 0.9| = 0.4, weight 2/4; bin (0.2, 0.3]: conf 0.3, 0.3, acc 1 → 0.7, weight 2/4
    const preds = [
      { confidence: 0.9, correct: true },
      { confidence: 0.9, correct: false },
      { confidence: 0.3, correct: true },
      { confidence: 0.3, correct: true },
    ];
    expect(expectedCalibrationError(preds)).toBeCloseTo(0.5 * 0.4 + 0.5 * 0.7, 12);
    const bins = reliabilityBins(preds);
    expect(bins[8]).toMatchObject({ n: 2, accuracy: 0.5 });
    expect(bins[8]?.confidence).toBeCloseTo(0.9, 12);
    expect(bins[2]).toMatchObject({ n: 2, accuracy: 1 });
    expect(bins.filter((b) => b.n > 0)).toHaveLength(2);
    expect(
      expectedCalibrationError([
        { confidence: 1, correct: true },
        { confidence: 0, correct: false },
      ]),
    ).toBe(0);
  });
});

describe('fits', () => {
  // A cue for temporal that is right 3 times in 4, and no cue → factual 2 in 3, update 1 in 3.
  const data: CalibrationExample[] = [
    ...Array.from({ length: 30 }, () => ({ scores: scores({ temporal: 1 }), gold: 'temporal' as const })),
    ...Array.from({ length: 10 }, () => ({ scores: scores({ temporal: 1 }), gold: 'multi-hop' as const })),
    ...Array.from({ length: 20 }, () => ({ scores: scores({}), gold: 'factual' as const })),
    ...Array.from({ length: 10 }, () => ({ scores: scores({}), gold: 'update' as const })),
  ];

  it('matrix scaling recovers the empirical frequencies per cue pattern (weak L2)', () => {
    const p = fitMatrix(data, { l2: 1e-6, iterations: 4000, learningRate: 0.05 });
    const cue = applyCalibration(p, scores({ temporal: 1 }));
    const none = applyCalibration(p, scores({}));
    expect(cue[ADAPT_TYPES.indexOf('temporal')]).toBeCloseTo(0.75, 2);
    expect(cue[ADAPT_TYPES.indexOf('multi-hop')]).toBeCloseTo(0.25, 2);
    expect(none[ADAPT_TYPES.indexOf('factual')]).toBeCloseTo(2 / 3, 2);
    expect(none[ADAPT_TYPES.indexOf('update')]).toBeCloseTo(1 / 3, 2);
  });

  it('temperature scaling lowers the NLL of the plan defaults (β 1.5, prior 0.5) and is deterministic', () => {
    const t = fitTemperature(data);
    expect(meanNll(t, data)).toBeLessThan(
      meanNll({ method: 'temperature', beta: 1.5, defaultPrior: 0.5, defaultType: 'factual' }, data),
    );
    expect(fitTemperature(data)).toEqual(t);
    expect(fitMatrix(data)).toEqual(fitMatrix(data));
  });
});

describe('rules with calibrationFile', () => {
  const file: ClassifierCalibrationFile = {
    version: 1,
    classifier: 'rules',
    params: { method: 'temperature', beta: 0.5, defaultPrior: 1, defaultType: 'factual' },
    dataset: 'test',
    seed: 1,
    fraction: 0.3,
    nCalibration: 2,
    calibrationQuestionIds: ['q1', 'q2'],
    ece: { before: 0.2, after: 0.1, n: 5 },
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('maps cue counts through the file, marks the source, and names the calibration questions', async () => {
    const path = join(dir, 'cal.json');
    await writeFile(path, JSON.stringify(file));
    const clf = new RulesClassifier({ calibrationFile: path });
    const r = await clf.classify({ id: 'x', text: 'When did I move?', askedAt: '2023-01-01T00:00:00Z' });
    // "when" is one temporal cue → logits 0.5·[1 (prior), 1, 0, 0, 0] → factual = temporal = e^0.5 / (2e^0.5 + 3)
    const z = 2 * Math.exp(0.5) + 3;
    expect(r.probs.temporal).toBeCloseTo(Math.exp(0.5) / z, 12);
    expect(r.probs.factual).toBeCloseTo(Math.exp(0.5) / z, 12);
    expect(r.type).toBe('temporal'); // tie broken in the plan's order
    expect((r as { source: string }).source).toBe('calibrated');
    expect([...(clf.excludedQuestionIds ?? [])]).toEqual(['q1', 'q2']);
    const method = await createAdaptmrMethod(
      AdaptmrOptionsSchema.parse({
        classifier: { name: 'rules', options: { calibrationFile: path } },
        router: { kind: 'fusion' },
      }),
      { id: 'a', k: 5 },
    );
    expect([...(method.excludedQuestionIds ?? [])]).toEqual(['q1', 'q2']);
  });

  it('a bad file fails with its path and the field', async () => {
    const path = join(dir, 'bad.json');
    await writeFile(
      path,
      JSON.stringify({ ...file, params: { method: 'matrix', weights: [[1]], bias: [0, 0, 0, 0, 0], l2: 0 } }),
    );
    expect(() => new RulesClassifier({ calibrationFile: path })).toThrow(/bad\.json.*params/);
    expect(() => new RulesClassifier({ calibrationFile: join(dir, 'missing.json') })).toThrow(/missing\.json/);
  });
});

describe('adaptmr classifier calibrate', () => {
  it('fits on the calibration split of a real dataset, writes the file and the reliability chart, reports ECE and routes', async () => {
    const out = join(dir, 'rules-lme.json');
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, 'log')
      .mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(' ')));
    try {
      await calibrateClassifierCommand.handler?.({
        _: [],
        $0: 'adaptmr',
        dataset: 'longmemeval-oracle',
        method: 'matrix',
        fraction: 0.3,
        seed: 42,
        out,
        'chart-dir': join(dir, 'charts'),
        'data-dir': undefined,
        json: true,
      } as unknown as ArgumentsCamelCase<never>);
    } finally {
      spy.mockRestore();
    }
    const report = JSON.parse(lines.join('\n')) as {
      heldOut: { n: number; raw: { ece: number }; matrix: { ece: number } };
      routes: { route: { calibrated: Record<string, number> } };
      chart: string[];
    };
    const file = readClassifierCalibration(out);
    expect(file.nCalibration + report.heldOut.n).toBe(500);
    expect(file.calibrationQuestionIds).toHaveLength(file.nCalibration);
    expect(file.ece.after).toBe(report.heldOut.matrix.ece);
    // the held-out routes add up to the held-out questions
    expect(Object.values(report.routes.route.calibrated).reduce((a, b) => a + b, 0)).toBe(report.heldOut.n);
    for (const f of report.chart) expect((await stat(f)).size).toBeGreaterThan(1000);
    expect(await readFile(report.chart[0] ?? '', 'utf8')).toMatch(/<svg/);
  });
});
