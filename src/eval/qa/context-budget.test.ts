// The reader's context-token budget: the same cut for every method, counted with the project's tokenizer.
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../llm/tokens.ts';
import { applyContextBudget } from './context-budget.ts';

describe('applyContextBudget', () => {
  const long = Array.from({ length: 200 }, (_, i) => `Memory ${i}: Ann moved to Paris in spring.`).join('\n');

  it('leaves a context that fits, or any context without a budget, unchanged', () => {
    expect(applyContextBudget('Ann: I live in Paris.', 100)).toEqual({
      text: 'Ann: I live in Paris.',
      tokens: countTokens('Ann: I live in Paris.'),
    });
    expect(applyContextBudget(long, undefined).cutFrom).toBeUndefined();
  });

  it('keeps the first tokens up to the budget and records the length before the cut', () => {
    const r = applyContextBudget(long, 50);
    expect(r.tokens).toBeLessThanOrEqual(50);
    expect(r.tokens).toBeGreaterThan(45);
    expect(long.startsWith(r.text)).toBe(true);
    expect(r.cutFrom).toBe(countTokens(long));
  });

  it('never splits a Chinese character', () => {
    const zh = '安妮去年春天搬到了巴黎，她在一家面包店工作。'.repeat(40);
    for (const budget of [7, 13, 29, 61]) {
      const r = applyContextBudget(zh, budget);
      expect(r.text.includes('\uFFFD')).toBe(false);
      expect(zh.startsWith(r.text)).toBe(true);
      expect(r.tokens).toBeLessThanOrEqual(budget);
    }
  });
});
