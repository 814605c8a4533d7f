// expandSweep: the base plus one config per variation, patched by method id, each compared with the base run.
import { describe, expect, it } from 'vitest';
import { expandSweep, expandSweepValues, isSweepDocument, parseSweep } from './sweep.ts';
import { loadExperimentOrSweep } from './load-sweep.ts';

const doc = {
  sweep: { reference: 'a' },
  base: {
    name: 'abl', datasets: [{ name: 'locomo' }],
    methods: [{ id: 'a', method: 'adaptmr', options: { classifier: { name: 'rules' }, router: { kind: 'single' } } }, { id: 'u', method: 'unified-embedding' }],
  },
  variations: [
    { id: 'no-classifier', set: { methods: { a: { options: { classifier: 'random' } } } } },
    { id: 'k5', set: { methods: { a: { k: 5 } }, seed: 7 } },
  ],
};

describe('expandSweep', () => {
  it('expands to the base and one patched config per variation', () => {
    expect(isSweepDocument(doc)).toBe(true);
    const exps = expandSweep(parseSweep(doc, 'f.yaml'), 'f.yaml');
    expect(exps.map((e) => e.config.name)).toEqual(['abl', 'abl.no-classifier', 'abl.k5']);
    const [base, noClassifier, k5] = exps.map((e) => e.config);
    expect(base!.stats?.reference).toBe('a');
    expect(base!.stats?.referenceRun).toBeUndefined();
    expect(noClassifier!.methods[0]!.options).toEqual({ classifier: 'random', router: { kind: 'single' } });
    expect(noClassifier!.methods[1]!.id).toBe('u');
    expect(noClassifier!.stats).toMatchObject({ reference: 'a', referenceRun: 'abl' });
    expect(k5!.methods[0]!.k).toBe(5);
    expect(k5!.seed).toBe(7);
    // each run has its own identity
    expect(new Set(exps.map((e) => e.configHash)).size).toBe(3);
    // the patch never leaks into the base value
    expect(expandSweepValues(parseSweep(doc, 'f')).at(0)!.config.methods).toEqual(doc.base.methods);
  });

  it('names the variation and field on bad input', () => {
    expect(() => expandSweep(parseSweep({ ...doc, variations: [{ id: 'x', set: { methods: { nope: { k: 1 } } } }] }, 'f'))).toThrow(/variations\.x\.set\.methods: no method "nope"/);
    expect(() => expandSweep(parseSweep({ ...doc, variations: [{ id: 'x', set: { seeed: 1 } }] }, 'f'), 'f')).toThrow(/variation x/);
    expect(() => parseSweep({ ...doc, variations: [] }, 'f')).toThrow();
  });

  it('the committed exp4 sweep expands into the base and the plan\'s six ablations', async () => {
    const { experiments, name } = await loadExperimentOrSweep('experiments/exp4-ablations.yaml');
    expect(name).toBe('exp4-ablations');
    expect(experiments.map((e) => e.config.name.replace('exp4-ablations', '').replace('.', ''))).toEqual(
      ['', 'no-classifier', 'no-temporal-strategy', 'no-update-strategy', 'no-multi-hop-strategy', 'no-abstention-strategy', 'no-entity-rerank']);
  });
});
