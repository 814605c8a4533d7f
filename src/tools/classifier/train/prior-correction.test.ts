// Per-benchmark prior correction (prior.ts `benchmarkLogPriors`, train.ts `offsets`) and example weights in the MLP:
// a benchmark's label mix goes into training offsets, not into the exported bias, and a zero weight removes an example.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FEATURE_SPEC, sparseRow, specWithCues } from '../../../classify/onnx/features.ts';
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';
import { trainMlpRows } from './mlp.ts';
import { benchmarkLogPriors } from './prior.ts';
import { BILINGUAL_TRAIN } from './testing/bilingual-train.ts';
import { predictLinearRow, trainLinearRows } from './train.ts';

const SPEC = specWithCues({ ...DEFAULT_FEATURE_SPEC, dim: 1 << 10 });

describe('benchmarkLogPriors', () => {
  it('gives each example the smoothed log prior of its own benchmark', () => {
    const items: { benchmark: string; gold: AdaptType }[] = [
      { benchmark: 'a', gold: 'factual' },
      { benchmark: 'a', gold: 'factual' },
      { benchmark: 'a', gold: 'temporal' },
      { benchmark: 'b', gold: 'multi-hop' },
    ];
    const logs = benchmarkLogPriors(items, [1, 1, 1, 1]);
    const p = (row: number[]) => row.map(Math.exp);
    // a: counts 2, 1, 0, 0, 0 → (x + 1) / (3 + 5).
    expect(p(logs[0]!).map((x) => Number(x.toFixed(6)))).toEqual([3 / 8, 2 / 8, 1 / 8, 1 / 8, 1 / 8]);
    expect(logs[1]).toBe(logs[0]);
    expect(p(logs[3]!)[ADAPT_TYPES.indexOf('multi-hop')]).toBeCloseTo(2 / 6, 6);
  });
});

describe('training logit offsets', () => {
  // Twelve copies of one question, 9 factual and 3 temporal: the class only shows in the prior.
  const texts = Array.from({ length: 12 }, () => 'a question');
  const golds: AdaptType[] = texts.map((_, i) => (i < 9 ? 'factual' : 'temporal'));
  const rows = texts.map((t) => sparseRow(t, SPEC));
  const opts = { spec: SPEC, l2: 1e-2, epochs: 40, seed: 1, lazy: true };
  const fk = ADAPT_TYPES.indexOf('factual');
  const tk = ADAPT_TYPES.indexOf('temporal');
  it('moves the label mix out of the exported model', () => {
    const plain = trainLinearRows(rows, golds, opts);
    const offsets = benchmarkLogPriors(
      golds.map((gold) => ({ benchmark: 'x', gold })),
      golds.map(() => 1),
    );
    const adjusted = trainLinearRows(rows, golds, opts, undefined, undefined, offsets);
    const odds = (m: typeof plain) => {
      const p = predictLinearRow(m, rows[0]!);
      return (p[fk] as number) / (p[tk] as number);
    };
    // Plain: the odds approach the data's 3 : 1; adjusted: the offsets carry (9 + 1) : (3 + 1), little is left.
    expect(odds(plain)).toBeGreaterThan(2.5);
    expect(odds(adjusted)).toBeLessThan(1.5);
    expect(odds(adjusted)).toBeGreaterThan(0.8);
  });
});

describe('MLP example weights', () => {
  it('all-one weights train the same model as none; zero weights remove examples', () => {
    const rows = BILINGUAL_TRAIN.map((e) => sparseRow(e.text, SPEC));
    const types = BILINGUAL_TRAIN.map((e) => e.type);
    const opts = { spec: SPEC, hidden: 4, epochs: 3, seed: 3, batchSize: 4 };
    const none = trainMlpRows(rows, types, opts);
    const ones = trainMlpRows(
      rows,
      types,
      opts,
      rows.map(() => 1),
    );
    expect(Array.from(ones.w2)).toEqual(Array.from(none.w2));
    const zeros = trainMlpRows(
      rows,
      types,
      opts,
      rows.map(() => 0),
    );
    // With no loss only the L2 term moves the weights, so the output bias never leaves its start (0).
    expect(Array.from(zeros.b2)).toEqual(new Array(ADAPT_TYPES.length).fill(0));
  });
});
