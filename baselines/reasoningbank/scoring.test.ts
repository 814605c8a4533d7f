// ReasoningBank scores on hand-computed cases: confidence, time decay, hybrid weights, and what 0.85 / 0.90 mean.
import { describe, expect, it } from 'vitest';
import { confidence, DAY_MS, itemScore, timeDecay } from './scoring.ts';

const NOW = Date.parse('2023-08-20T12:00:00Z');
const hybrid = {
  strategy: 'hybrid' as const,
  weights: { semantic: 0.6, confidence: 0.2, success: 0.15, recency: 0.05 },
  halflifeDays: 30,
};

describe('reasoningbank scoring', () => {
  it('confidence = 0.5 + 0.5·tanh(count/10)', () => {
    expect(confidence(0)).toBe(0.5);
    expect(confidence(10)).toBeCloseTo(0.5 + 0.5 * 0.7615941559557649, 15);
  });

  it('time decay halves every 30 whole days; partial days are floored; the future counts as today', () => {
    expect(timeDecay(NOW, NOW, 30)).toBe(1);
    expect(timeDecay(NOW - 30 * DAY_MS, NOW, 30)).toBeCloseTo(0.5, 15);
    expect(timeDecay(NOW - 29.9 * DAY_MS, NOW, 30)).toBeCloseTo(2 ** (-29 / 30), 15);
    expect(timeDecay(NOW + 5 * DAY_MS, NOW, 30)).toBe(1);
  });

  it('hybrid = 0.6·cos + 0.2·confidence + 0.15·success − 0.05·(1 − decay)', () => {
    const fresh = { createdMs: NOW, success: true, retrievalCount: 0 };
    expect(itemScore(0.8, fresh, NOW, hybrid)).toBeCloseTo(0.48 + 0.1 + 0.15, 12); // 0.73
    expect(itemScore(0.8, { ...fresh, createdMs: NOW - 30 * DAY_MS }, NOW, hybrid)).toBeCloseTo(0.73 - 0.025, 12);
    expect(itemScore(0.8, { ...fresh, success: false }, NOW, hybrid)).toBeCloseTo(0.48 + 0.1 - 0.075, 12);
    expect(itemScore(0.8, { ...fresh, retrievalCount: 10 }, NOW, hybrid)).toBeCloseTo(
      0.48 + 0.2 * confidence(10) + 0.15,
      12,
    );
    expect(itemScore(0.8, fresh, NOW, { ...hybrid, strategy: 'cosine' })).toBe(0.8);
  });

  it('a never-retrieved item reaches the 0.85 threshold only at cosine 1, and never the 0.90 dedup threshold', () => {
    const fresh = { createdMs: NOW, success: true, retrievalCount: 0 };
    expect(itemScore(1, fresh, NOW, hybrid)).toBeCloseTo(0.85, 12);
    expect(itemScore(0.99, fresh, NOW, hybrid)).toBeLessThan(0.85);
    expect(itemScore(1, fresh, NOW, hybrid)).toBeLessThan(0.9);
  });
});
