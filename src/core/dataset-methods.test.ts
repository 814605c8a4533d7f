// Per-dataset method settings (src/core/dataset-methods.ts): the dataset's index applies to every method, a method
// patch merges into that method only, other datasets keep the experiment's methods, and bad entries fail at load
// with one line naming the file, the dataset entry and the method.
import { describe, expect, it } from 'vitest';
import { parseExperiment } from '../run/config/load-config.ts';
import { configForDataset, methodsForDataset } from './dataset-methods.ts';

const yaml = (locomo: string): string => `
name: two-datasets
datasets:
  - name: longmemeval-s
  - name: locomo
${locomo}
methods:
  - id: embed
    method: unified-embedding
    index: { granularity: session, roles: [user] }
    k: 10
  - id: adaptmr
    method: adaptmr
    index: { granularity: session }
    k: 10
    options: { classifier: { name: rules }, strategies: { abstention: { thresholdsFile: a.json }, factual: { entityWeight: 0.5 } } }
`;

describe('per-dataset method settings', () => {
  it('merge the dataset index into every method and a method patch into that method only', () => {
    const exp = parseExperiment(
      yaml(`    index: { granularity: turn, speakerPrefix: true }
    methods:
      adaptmr: { options: { strategies: { abstention: { thresholdsFile: b.json } } } }`),
      'x.yaml',
    );
    const [embed, adaptmr] = methodsForDataset(exp.config, 1, 'x.yaml');
    expect(embed!.index).toMatchObject({ granularity: 'turn', speakerPrefix: true, roles: ['user'] });
    expect(adaptmr!.index).toMatchObject({ granularity: 'turn', speakerPrefix: true, roles: ['user', 'assistant'] });
    expect(adaptmr!.options).toEqual({
      classifier: { name: 'rules' },
      strategies: { abstention: { thresholdsFile: 'b.json' }, factual: { entityWeight: 0.5 } },
    });
    expect(embed!.options).toEqual({});
    // The other dataset, and the experiment itself, are untouched.
    expect(configForDataset(exp.config, 0, 'x.yaml')).toBe(exp.config);
    expect(exp.config.methods[1]!.options).toMatchObject({ strategies: { abstention: { thresholdsFile: 'a.json' } } });
    expect(exp.config.methods[0]!.index.granularity).toBe('session');
  });

  it('name the file, the dataset entry and the method when a patch is wrong', () => {
    expect(() => parseExperiment(yaml('    methods: { adaptmrr: { options: {} } }'), 'x.yaml')).toThrow(
      /x\.yaml: datasets\.1 \(locomo\).*no method "adaptmrr" in the experiment \(has embed, adaptmr\)/,
    );
    expect(() => parseExperiment(yaml('    index: { granularity: paragraph }'), 'x.yaml')).toThrow(/datasets/);
    expect(() => parseExperiment(yaml('    methods: { embed: { k: 5 } }'), 'x.yaml')).toThrow(/k/);
  });
});
