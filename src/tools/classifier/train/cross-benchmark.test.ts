/**
 * The cross-benchmark training pieces without datasets (fast tier): the combined set of the written questions
 * (labels, dedup, hash), balancing weights, the rules prior (it reproduces the rules' probabilities), temperature
 * and fallback-threshold fitting, and the k-fold split's exclusion of a test fold's text from the pool.
 */
import { describe, expect, it } from 'vitest';
import { RulesClassifier } from '../../../classify/rules.ts';
import { sparseRow, specWithCues } from '../../../classify/onnx/features.ts';
import { predictLinearRow } from './train.ts';
import { balanceWeights } from './balance.ts';
import { benchmarkOf, combinedTrainingSet, languageOf, parseSourceList } from './combined.ts';
import { rulesPrior } from './prior.ts';
import { fitFallbackThreshold, fitTemperature, withTemperature } from './calibrate-model.ts';
import { kfoldWithPool } from '../eval/lobo-splits.ts';
import { ADAPT_TYPES } from '../../../core/types.ts';

describe('combined training set', () => {
  it('labels benchmark and language, keeps every written question once, and hashes the content', async () => {
    const set = await combinedTrainingSet(['zh-plan', 'en-plan']);
    expect(set.questions).toHaveLength(225);
    expect(new Set(set.questions.map((q) => q.benchmark))).toEqual(new Set(['written']));
    expect(set.questions.filter((q) => q.language === 'zh')).toHaveLength(125);
    const again = await combinedTrainingSet(['zh-plan', 'en-plan', 'zh-plan']);
    expect(again.questions).toHaveLength(225);
    expect(again.sources[2]).toMatchObject({ dataset: 'zh-plan', duplicates: 125 });
    expect(again.sha256).toBe(set.sha256);
    expect((await combinedTrainingSet(['en-plan', 'zh-plan'])).sha256).not.toBe(set.sha256);
  });

  it('benchmarks group versions of one benchmark; languages by Han characters; unknown names fail naming the flag', () => {
    expect(benchmarkOf('longmemeval-s')).toBe(benchmarkOf('longmemeval-oracle'));
    expect(benchmarkOf('beam-500k')).toBe('beam');
    expect(languageOf('我现在住在哪里？')).toBe('zh');
    expect(languageOf('Where do I live now?')).toBe('en');
    expect(() => parseSourceList('locomo,nope', '--datasets')).toThrow(/nope/);
  });
});

describe('balancing', () => {
  it('benchmark+class: every type the same total weight, shared by its benchmarks; mean 1', () => {
    const items = [
      ...Array.from({ length: 8 }, () => ({ benchmark: 'a', gold: 'factual' as const })),
      ...Array.from({ length: 2 }, () => ({ benchmark: 'b', gold: 'factual' as const })),
      ...Array.from({ length: 2 }, () => ({ benchmark: 'b', gold: 'temporal' as const })),
    ];
    const w = balanceWeights(items, 'benchmark+class');
    const total = (keep: (i: number) => boolean) => w.filter((_, i) => keep(i)).reduce((a, b) => a + b, 0);
    expect(total((i) => items[i]!.gold === 'factual')).toBeCloseTo(total((i) => items[i]!.gold === 'temporal'));
    expect(total((i) => i < 8)).toBeCloseTo(total((i) => i >= 8 && i < 10));
    expect(w.reduce((a, b) => a + b, 0) / w.length).toBeCloseTo(1);
    expect(balanceWeights(items, 'none')).toEqual(items.map(() => 1));
  });
});

describe('rules prior', () => {
  it('weights that give the rules classifier’s probabilities on questions with cues', async () => {
    const spec = specWithCues();
    const prior = rulesPrior(spec);
    const model = {
      spec,
      labels: ADAPT_TYPES,
      weights: Float32Array.from(prior.weights),
      bias: Float32Array.from(prior.bias),
      trainedOn: {} as never,
    };
    const rules = new RulesClassifier();
    for (const text of ['When did I move to Berlin?', '我现在住在哪里？', 'How many books did I read in total?']) {
      const want = (await rules.classify({ id: 'q', text, askedAt: '2024-01-01T00:00:00Z' })).probs;
      const got = predictLinearRow(model, sparseRow(text, spec));
      ADAPT_TYPES.forEach((t, k) => expect(got[k]).toBeCloseTo(want[t], 5));
    }
  });
});

describe('calibration', () => {
  it('fits back the temperature that sharpened the probabilities', () => {
    const base = [
      [0.5, 0.2, 0.1, 0.1, 0.1],
      [0.2, 0.4, 0.2, 0.1, 0.1],
      [0.3, 0.3, 0.2, 0.1, 0.1],
    ];
    // Gold drawn so that the true probabilities are `base`; sharpened predictions need T ≈ 2 to undo.
    const probs: number[][] = [];
    const gold: number[] = [];
    for (const p of base)
      p.forEach((q, k) => {
        for (let r = 0; r < Math.round(q * 100); r++) {
          probs.push(withTemperature(p, 0.5));
          gold.push(k);
        }
      });
    expect(fitTemperature(probs, gold)).toBeCloseTo(2, 1);
  });

  it('the fallback threshold separates confident right answers from unsure wrong ones', () => {
    expect(fitFallbackThreshold([0.9, 0.8, 0.35, 0.3], [true, true, false, false])).toBeGreaterThan(0.35);
    expect(fitFallbackThreshold([0.9, 0.8, 0.35, 0.3], [true, true, false, false])).toBeLessThanOrEqual(0.8);
  });
});

describe('k-fold with a pool', () => {
  it('never trains a fold on a pool question with the text of one of its test questions', async () => {
    const zh = (await combinedTrainingSet(['zh-plan'])).questions;
    const pool = zh.map((q) => ({ ...q, dataset: 'copy', query: { ...q.query, id: `copy-${q.query.id}` } }));
    for (const s of kfoldWithPool(zh, pool, 5, 42)) {
      const test = new Set(s.test.map((q) => q.query.text));
      expect(s.train.some((q) => test.has(q.query.text))).toBe(false);
      expect(s.train.length + s.test.length).toBe(zh.length);
    }
  });
});
