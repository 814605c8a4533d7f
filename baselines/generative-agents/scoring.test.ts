// Generative Agents scoring on hand-computed cases: hourly decay, min-max, weights, filter statements.
import { describe, expect, it } from 'vitest';
import { GenerativeAgentsOptionsSchema } from './generative-agents-method.ts';
import { HOUR_MS, parseFilterStatement, rankRows, recency, relativeRecency, scoreRows } from './scoring.ts';

const NOW = Date.parse('2023-08-20T12:00:00Z');

describe('generative-agents scoring', () => {
  it('decays by decay_factor per hour since last access, never above 1', () => {
    expect(recency(0, 0.99)).toBe(1);
    expect(recency(24, 0.99)).toBeCloseTo(0.7856781408072188, 15); // 0.99^24
    expect(recency(-5, 0.99)).toBe(1);
  });

  it('min-max normalises recency: accessed now, 1 h and 2 h ago → 1, (0.99−0.9801)/(1−0.9801), 0', () => {
    const raw = relativeRecency([NOW, NOW - HOUR_MS, NOW - 2 * HOUR_MS], NOW, 0.99);
    expect(raw).toEqual([1, 0.99, 0.99 ** 2]);
    const rows = scoreRows(raw, [0, 0, 0], [0, 0, 0], { recency: 1, importance: 0, relevance: 0 });
    expect(rows.map((r) => r.recency)).toEqual([1, expect.closeTo(0.0099 / 0.0199, 12), 0]);
  });

  it('keeps years-old memories apart instead of underflowing them all to 0', () => {
    const tenYears = 10 * 365 * 24 * HOUR_MS;
    expect(0.99 ** (tenYears / HOUR_MS)).toBe(0); // what the naive formula would give both
    const raw = relativeRecency([NOW - tenYears, NOW - tenYears - HOUR_MS], NOW, 0.99);
    expect(scoreRows(raw, [0, 0], [0, 0], { recency: 1, importance: 0, relevance: 0 }).map((r) => r.recency)).toEqual([
      1, 0,
    ]);
  });

  it('scores α_rec·recency + α_imp·importance + α_rel·relevance with min-max on recency and relevance only', () => {
    const raw = [1, 0.99, 0.9801];
    const imp = [0.3, 0.9, 0.5];
    const rel = [0.2, 0.4, 0.8]; // → 0, 1/3, 1
    const rows = scoreRows(raw, imp, rel, { recency: 1, importance: 1, relevance: 1 });
    expect(rows.map((r) => r.score)).toEqual([
      expect.closeTo(1.3, 12),
      expect.closeTo(0.0099 / 0.0199 + 0.9 + 1 / 3, 12),
      expect.closeTo(1.5, 12),
    ]);
    expect(rankRows(rows, 3)).toEqual([1, 2, 0]);
    const weighted = scoreRows(raw, imp, rel, { recency: 2, importance: 1, relevance: 0.5 });
    expect(weighted.map((r) => r.score)).toEqual([
      expect.closeTo(2.3, 12),
      expect.closeTo((2 * 0.0099) / 0.0199 + 0.9 + 0.5 / 3, 12),
      expect.closeTo(1.0, 12),
    ]);
    expect(rankRows(weighted, 2)).toEqual([0, 1]);
  });

  it('gives equal values a normalised 0 (the spec divides by zero) and ranks ties by stream order', () => {
    const rows = scoreRows([1, 1], [0.5, 0.5], [0.3, 0.3], { recency: 1, importance: 1, relevance: 1 });
    expect(rows.map((r) => [r.recency, r.relevance, r.score])).toEqual([
      [0, 0, 0.5],
      [0, 0, 0.5],
    ]);
    expect(rankRows(rows, 5)).toEqual([0, 1]);
  });

  it('applies filter statements to the normalised columns before the top k', () => {
    const rows = scoreRows([1, 0.99, 0.9801], [0.3, 0.9, 0.5], [0.2, 0.4, 0.8], {
      recency: 1,
      importance: 1,
      relevance: 1,
    });
    const f = parseFilterStatement('relevance > 0.5');
    if (!f.ok) throw new Error(f.error);
    expect(rankRows(rows, 3, f.test)).toEqual([2]);
    const g = parseFilterStatement('score >= 1.5 & importance < 0.9');
    if (!g.ok) throw new Error(g.error);
    expect(rankRows(rows, 3, g.test)).toEqual([2]);
  });

  it('rejects a filter statement it cannot read when the config is parsed', () => {
    expect(parseFilterStatement('relevance >> 2').ok).toBe(false);
    const r = GenerativeAgentsOptionsSchema.safeParse({ filterStatement: 'importance is high' });
    expect(r.success).toBe(false);
    expect(GenerativeAgentsOptionsSchema.parse({}).decayFactor).toBe(0.99);
  });
});
