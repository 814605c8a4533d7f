// The llm: block inside an experiment config: strict, keys only by variable name, defaults applied.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ExperimentConfigSchema } from '../core/config.ts';

const yaml = `
name: qa-smoke
datasets: [{ name: longmemeval-oracle, limit: 2 }]
methods: [{ id: fc, method: full-context }]
llm:
  cache: { mode: read-only }
  concurrency: 8
  requestsPerMinute: 500
  prices: { gpt-4o-mini: { inputPerMTok: 0.15, outputPerMTok: 0.6 } }
  roles:
    reader: { model: gpt-4o-mini }
    judge: { model: gpt-4o-2024-08-06, baseURL: "http://127.0.0.1:8000/v1", apiKeyEnv: JUDGE_KEY, temperature: 0 }
`;

describe('experiment llm: block', () => {
  it('parses with defaults', () => {
    const cfg = ExperimentConfigSchema.parse(parse(yaml));
    expect(cfg.llm).toMatchObject({
      cache: { mode: 'read-only' },
      concurrency: 8,
      requestsPerMinute: 500,
      timeoutMs: 60_000,
      maxRetries: 4,
      roles: { reader: { model: 'gpt-4o-mini', structuredOutput: 'json-schema' }, judge: { apiKeyEnv: 'JUDGE_KEY' } },
    });
  });

  it('rejects a key pasted into the config and unknown fields', () => {
    const withKey = parse(yaml.replace('apiKeyEnv: JUDGE_KEY', 'apiKeyEnv: sk-live-abc123')) as unknown;
    expect(ExperimentConfigSchema.safeParse(withKey).success).toBe(false);
    const typo = parse(yaml.replace('concurrency: 8', 'concurrancy: 8')) as unknown;
    expect(ExperimentConfigSchema.safeParse(typo).success).toBe(false);
  });

  it('is optional', () => {
    expect(ExperimentConfigSchema.parse(parse(yaml.split('llm:')[0] ?? '')).llm).toBeUndefined();
  });
});
