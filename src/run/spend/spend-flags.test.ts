// --batch / --budget-usd: set llm.batch.roles and llm.budgetUsd on a loaded experiment without changing its identity;
// a bad role or amount is one line naming the flag.
import { describe, expect, it } from 'vitest';
import { parseExperiment } from '../config/load-config.ts';
import { withSpendFlags } from './spend-flags.ts';

const yaml = (batch = '') => `
name: flags
datasets: [{ name: longmemeval-oracle, limit: 1 }]
methods: [{ id: bm25, method: bm25 }]
llm:
  roles: { reader: { model: m }, judge: { model: j } }
${batch}
qa: {}
`;

describe('spend flags', () => {
  it("set the Batch API roles (keeping the file's poll settings) and the budget", () => {
    const exp = parseExperiment(yaml('  batch: { roles: [judge], pollSeconds: 2 }'), 'f.yaml');
    const c = withSpendFlags(exp.config, { batch: 'reader, judge', budgetUsd: 12.5 }, 'f.yaml');
    expect(c.llm?.batch).toEqual({ roles: ['reader', 'judge'], pollSeconds: 2, maxWaitHours: 24 });
    expect(c.llm?.budgetUsd).toBe(12.5);
    expect(exp.config.llm?.budgetUsd).toBeUndefined(); // the loaded config is not modified
  });

  it('refuse an unknown role and a config without llm:, in one line naming the flag', () => {
    const exp = parseExperiment(yaml(), 'f.yaml');
    expect(() => withSpendFlags(exp.config, { batch: 'reader,writer' }, 'f.yaml')).toThrow(/^--batch: .*roles/);
    const noLlm = parseExperiment(
      'name: x\ndatasets: [{ name: longmemeval-oracle }]\nmethods: [{ id: bm25, method: bm25 }]\n',
      'x.yaml',
    );
    expect(() => withSpendFlags(noLlm.config, { budgetUsd: 1 }, 'x.yaml')).toThrow(
      /^x\.yaml: --batch and --budget-usd need an llm: block/,
    );
  });
});
