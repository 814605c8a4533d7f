// Rules classifier: golden decisions for the plan's cue lists (English and Chinese) and hand-computed probabilities.
import { describe, expect, it } from 'vitest';
import { matchCues, RulesClassifier } from './rules.ts';

const q = (text: string) => ({ id: 'q', text, askedAt: '2023-05-01T00:00:00Z' });

describe('rules classifier', () => {
  const rules = new RulesClassifier();

  it.each([
    ['When did I start learning the guitar?', 'temporal'],
    ['What is my current job title?', 'update'],
    ['Have I ever mentioned my blood type?', 'abstention'],
    ['How many books did I read in total?', 'multi-hop'],
    ['What is the name of my cat?', 'factual'],
    ['我是先换的工作还是先搬的家？', 'temporal'],
    ['我现在住在哪里？', 'update'],
    ['我有没有跟你说过我的血型？', 'abstention'],
    ['我一共去过几次日本？', 'multi-hop'],
    ['我的猫叫什么名字？', 'factual'],
  ] as const)('%s → %s', async (text, type) => {
    expect((await rules.classify(q(text))).type).toBe(type);
  });

  it('gives softmax(beta · cue count) probabilities with the default prior (hand-computed)', async () => {
    // One temporal cue: scores temporal 1, factual 0.5 (prior), others 0; beta 1.5.
    const r = await rules.classify(q('When did I go to Paris?'));
    const z = Math.exp(1.5) + Math.exp(0.75) + 3;
    expect(r.probs.temporal).toBeCloseTo(Math.exp(1.5) / z, 12);
    expect(r.probs.factual).toBeCloseTo(Math.exp(0.75) / z, 12);
    expect(r.probs.update).toBeCloseTo(1 / z, 12);
    expect(r.source).toBe('rules');
  });

  it('breaks ties by the plan order (temporal before update) and leaves undecided questions to the default', () => {
    const tie = rules.explain('When did I change my phone?'); // temporal: when; update: change
    expect(tie.scores.temporal).toBe(1);
    expect(tie.scores.update).toBe(1);
    expect(tie.type).toBe('temporal');
    const none = new RulesClassifier({ defaultType: 'multi-hop' }).explain('What is the name of my cat?');
    expect(none.decided).toBe(false);
    expect(none.type).toBe('multi-hop');
    expect(none.probs['multi-hop']).toBeGreaterThan(none.probs.factual);
  });

  it('rejects unknown options (strict schema)', () => {
    expect(() => new RulesClassifier({ defaultTyp: 'factual' } as never)).toThrow(/defaultTyp/);
  });

  it('respects the language setting', () => {
    expect(matchCues('我现在住在哪里？', 'en').decided).toBe(false);
    expect(matchCues('我现在住在哪里？', 'zh').decided).toBe(true);
  });
});
