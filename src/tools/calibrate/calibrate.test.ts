// Threshold calibration: the seeded stratified split, numpy-style quantiles and the θ rule, hand-computed.
import { describe, expect, it } from 'vitest';
import type { Instance } from '../../core/types.ts';
import { createWinkSifEmbedder } from '../../index/index.ts';
import { ASKED_AT, PLAN_HAYSTACK } from '../../strategies/testing/fixtures.ts';
import {
  calibrate,
  calibrationQuestionIds,
  calibrationSplit,
  mergeThresholds,
  pickThresholds,
  quantile,
} from './calibrate.ts';

describe('calibrationSplit', () => {
  const catalog = [
    ...Array.from({ length: 10 }, (_, i) => ({ questionId: `f${i}`, adaptType: 'factual' as const })),
    ...Array.from({ length: 3 }, (_, i) => ({ questionId: `a${i}`, adaptType: 'abstention' as const })),
  ];
  it('takes round(fraction × n) per type (at least one), seeded and order-independent', () => {
    const a = calibrationSplit(catalog, 0.3, 42);
    expect(a.filter((id) => id.startsWith('f'))).toHaveLength(3);
    expect(a.filter((id) => id.startsWith('a'))).toHaveLength(1);
    expect(calibrationSplit([...catalog].reverse(), 0.3, 42)).toEqual(a);
    const other = new Set([1, 2, 3, 4, 5].map((s) => calibrationSplit(catalog, 0.3, s).join()));
    expect(other.size).toBeGreaterThan(1);
  });
});

describe('thresholds', () => {
  it('quantile interpolates like numpy.quantile (linear)', () => {
    // numpy.quantile([1, 2, 3, 4], 0.05) = 1 + 0.15 · 1 = 1.15; 0.95 → 3 + 0.85 = 3.85
    expect(quantile([4, 1, 3, 2], 0.05)).toBeCloseTo(1.15, 12);
    expect(quantile([4, 1, 3, 2], 0.95)).toBeCloseTo(3.85, 12);
  });

  it('θ_low = p5(answerable), θ_high = p95(abstention); midpoint when they cross', () => {
    expect(pickThresholds([0.5, 0.6, 0.7, 0.8, 0.9], [0.55, 0.75])).toEqual({
      low: expect.closeTo(0.52, 12),
      high: expect.closeTo(0.74, 12),
    });
    // p5([0.9, 0.95]) = 0.9025, p95([0.3, 0.4]) = 0.395 → crossed → both (0.9025 + 0.395) / 2 = 0.64875.
    expect(pickThresholds([0.9, 0.95], [0.3, 0.4])).toEqual({
      low: expect.closeTo(0.64875, 12),
      high: expect.closeTo(0.64875, 12),
    });
    expect(() => pickThresholds([0.9], [])).toThrow(/no abstention question/);
  });

  it('calibrate scores the split questions on their haystacks and lists their ids', async () => {
    const inst = (id: string, text: string, abs: boolean): Instance => ({
      dataset: 'hand',
      query: { id, text, askedAt: ASKED_AT },
      haystackId: 'plan',
      haystack: PLAN_HAYSTACK,
      gold: {
        nativeType: 'x',
        type: abs ? 'abstention' : 'factual',
        isAbstention: abs,
        evidenceSessionIds: [],
        evidenceTurnIds: [],
        answer: '',
      },
    });
    const embedder = createWinkSifEmbedder();
    const { entry, scores } = await calibrate({
      dataset: 'hand',
      instances: [
        inst('q1', "What is my cat's name?", false),
        inst('q2', 'Where did I move to?', false),
        inst('q3', 'What is my blood type?', true),
      ],
      embedder,
      spec: { granularity: 'session', roles: ['user', 'assistant'], includeCaptions: true },
      seed: 1,
      fraction: 0.3,
    });
    expect(scores.map((s) => s.id)).toEqual(['q1', 'q2', 'q3']);
    expect(entry.nAbstention).toBe(1);
    expect(entry.low).toBeLessThanOrEqual(entry.high);
    const file = mergeThresholds(undefined, embedder.id, entry);
    expect([...calibrationQuestionIds(file)]).toEqual(['q1', 'q2', 'q3']);
  });
});
