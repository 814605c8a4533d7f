// Factual strategy: the plan's rerank formula, hand-computed, and entity extraction.
import { describe, expect, it } from 'vitest';
import type { MemoryUnit } from '../core/types.ts';
import { entityBoost, rerankByEntities } from './factual.ts';
import { countOverlap, extractEntities, textKeys } from './text.ts';

const unit = (id: string, text: string): MemoryUnit => ({
  id,
  sessionId: id,
  turnIds: [id],
  role: 'user',
  text,
  at: '2023-01-01T00:00:00Z',
});

describe('factual rerank', () => {
  it('is score × (1 + 0.3 × overlap) (plan §2.3 strategy 1)', () => {
    expect(entityBoost(0.5, 2, 0.3)).toBeCloseTo(0.8, 12);
    expect(entityBoost(0.5, 0, 0.3)).toBe(0.5);
    // Negative cosines are divided, so an overlap still helps.
    expect(entityBoost(-0.4, 1, 0.3)).toBeCloseTo(-0.4 / 1.3, 12);
  });

  it('lifts the unit that names the entity over a closer unit that does not', () => {
    const ranked = rerankByEntities(
      [
        { unit: unit('run', 'I started running five kilometers every day.'), score: 0.6 },
        { unit: unit('cat', 'I have a cat named Snowball.'), score: 0.5 },
      ],
      ['cat', 'name'],
      0.3,
    );
    // cat: 0.5 × (1 + 0.3 × 2) = 0.8 ("named" and "name" share the stem); run: 0.6.
    expect(ranked.map((r) => r.unit.id)).toEqual(['cat', 'run']);
    expect(ranked[0]!.score).toBeCloseTo(0.8, 12);
  });

  it('entityWeight 0 keeps the semantic order (w/o entity reranking ablation)', () => {
    const c = [
      { unit: unit('a', 'x'), score: 0.6 },
      { unit: unit('b', 'cat'), score: 0.5 },
    ];
    expect(rerankByEntities(c, ['cat'], 0).map((r) => r.unit.id)).toEqual(['a', 'b']);
  });
});

describe('extractEntities', () => {
  it('keeps content words and capitalised phrases, drops question scaffolding', () => {
    expect(extractEntities("What is my cat's name?")).toEqual(['cat', 'name']);
    expect(extractEntities('When did I visit New York with Anna?')).toEqual([
      'new york',
      'visit',
      'new',
      'york',
      'anna',
    ]);
    expect(extractEntities('Where did I move, and which restaurants did I like?')).toEqual(['move', 'restaur', 'like']);
  });
  it('uses segmented content words for Chinese; a glued word still half-matches its characters', () => {
    expect(extractEntities('我的猫叫什么名字')).toEqual(['猫叫', '名字']);
    expect(extractEntities('我提到过的餐厅里，哪种菜系我提到的次数最多？')).toEqual(['餐厅', '菜系']);
    const keys = textKeys('我养了一只叫小白的猫');
    expect(countOverlap(['猫叫', '名字'], keys)).toBeCloseTo(0.5, 12);
    expect(countOverlap(['小白'], keys)).toBe(1);
  });
});
