// The runner's capability checks: what a method declares is checked against the experiment before any work.
import { describe, expect, it } from 'vitest';
import { ExperimentConfigSchema } from '../../core/config.ts';
import { checkCapabilities, createMethods } from './create-methods.ts';

const base = { name: 'caps', datasets: [{ name: 'locomo' }] } as const;

describe('method capabilities', () => {
  it('fails before any work when a method needs an LLM role the experiment does not give', async () => {
    const config = ExperimentConfigSchema.parse({
      ...base,
      methods: [{ id: 'temporal-llm', method: 'strategy', options: { name: 'temporal', options: { mode: 'llm' } } }],
    });
    await expect(createMethods(config, 'exp.yaml', 'f'.repeat(64))).rejects.toThrow(
      /exp\.yaml: methods\.0 \(temporal-llm\): needs an LLM for the role "strategy": add llm\.roles\.strategy/,
    );
  });

  it('accepts the same method once the role is configured, and records identity beside behaviour', async () => {
    const config = ExperimentConfigSchema.parse({
      ...base,
      llm: { roles: { strategy: { model: 'm', baseURL: 'http://127.0.0.1:9/v1' } } },
      methods: [{ id: 't', method: 'strategy', k: 7, options: { name: 'temporal', options: { mode: 'llm' } } }],
    });
    const [m] = await createMethods(config, 'exp.yaml', 'f'.repeat(64));
    expect(m).toMatchObject({ id: 't', kind: 'strategy', k: 7, index: { granularity: 'session' } });
    expect(m!.impl.capabilities).toEqual({ output: 'units', llmRoles: ['strategy'] });
  });

  it('a method without unit ids needs qa; one that answers by itself needs qa', () => {
    const config = ExperimentConfigSchema.parse({ ...base, methods: [{ id: 'x', method: 'bm25' }] });
    expect(() => checkCapabilities({ output: 'text' }, config, [], 'm')).toThrow(
      /no retrieval metrics; add a qa: block/,
    );
    expect(() => checkCapabilities({ output: 'units', answers: true }, config, [], 'm')).toThrow(/answers by itself/);
    expect(() => checkCapabilities({ output: 'units' }, config, [], 'm')).not.toThrow();
  });
});
