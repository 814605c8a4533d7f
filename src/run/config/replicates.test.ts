// `replicates: n` expands a memory-system method into its n replicates at load (ids, numbers, dataset patches by the
// method's own id); any other method, or a hand-written `replicate`, is refused with one line.
import { describe, expect, it } from 'vitest';
import { configForDataset } from '../../core/dataset-methods.ts';
import { parseExperiment } from './load-config.ts';
import { parseReplicateId } from './replicates.ts';

const yaml = (method: string, extra = '') => `
name: reps
datasets:
  - name: locomo
    methods: { rb: { options: { pollMs: 7 } } }
methods:
  - { id: rb, method: ${method}, k: 5, replicates: 3, options: { url: "http://127.0.0.1:1/mcp" }${extra} }
  - { id: bm25, method: bm25 }
`;

describe('replicates', () => {
  it('expands into <id>:r1…:rn with their numbers; a dataset patch by the id reaches every replicate', () => {
    const exp = parseExperiment(yaml('mcp-memory'), 'reps.yaml');
    expect(exp.config.methods.map((m) => [m.id, m.replicate])).toEqual([
      ['rb:r1', 1],
      ['rb:r2', 2],
      ['rb:r3', 3],
      ['bm25', undefined],
    ]);
    const patched = configForDataset(exp.config, 0, 'reps.yaml').methods;
    expect(patched.slice(0, 3).map((m) => m.options.pollMs)).toEqual([7, 7, 7]);
    expect(parseReplicateId('rb:r2')).toEqual({ base: 'rb', replicate: 2 });
    expect(parseReplicateId('bm25')).toBeNull();
  });

  it('refuses replicates on a method that is not a memory system, and a hand-set replicate beside replicates', () => {
    expect(() => parseExperiment(yaml('bm25'), 'reps.yaml')).toThrow(
      /methods\.0 \(rb\): replicates is for memory-system methods .* not bm25/,
    );
    expect(() => parseExperiment(yaml('mcp-memory', ', replicate: 2'), 'reps.yaml')).toThrow(
      /"replicate" is set by "replicates"/,
    );
  });
});
