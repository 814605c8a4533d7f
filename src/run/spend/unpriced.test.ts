/**
 * A budget holds without a price table only by refusing: a run with `llm.budgetUsd` and a model absent from
 * `llm.prices` is refused before any request (naming the model and where the config uses it) unless
 * `--allow-unpriced` says it is free; the estimate prints "unknown" for that model's dollars and names it, never $0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { estimateExperiment, formatEstimate } from './estimate.ts';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';
import { tinyLongMemEval } from '../testing/tiny-longmemeval.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-unpriced-'));
let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer({ chat: () => 'yes' });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const experiment = (name: string, budget: string) =>
  parseExperiment(
    `
name: ${name}
datasets: [${tinyLongMemEval(dir, 2, name)}]
methods: [{ id: bm25, method: bm25, k: 1 }]
llm:
  cache: { mode: read-write, dir: ${join(dir, `${name}-cache`)} }
  ${budget}
  prices:
    priced-judge: { inputPerMTok: 2.5, outputPerMTok: 10 }
  roles:
    reader: { baseURL: ${server.baseURL}, model: local-reader-模型 }
    judge: { baseURL: ${server.baseURL}, model: priced-judge }
qa: {}
`,
    `${name}.yaml`,
  );

describe('a budget with an unpriced model', () => {
  it('is refused before any request, naming the model, the role and both ways on', async () => {
    const before = server.count();
    const err = await runExperiment(experiment('refused', 'budgetUsd: 0.000001'), {
      out: join(dir, 'refused.duckdb'),
      progress: false,
      log: () => {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(
      /llm\.budgetUsd \$0\.000001 cannot hold: "local-reader-模型" \(llm\.roles\.reader\) has no price .*llm\.prices\.local-reader-模型.*--allow-unpriced/,
    );
    expect(server.count()).toBe(before);
  });

  it('runs with --allow-unpriced (the model counts as free)', async () => {
    const summary = await runExperiment(experiment('allowed', 'budgetUsd: 1'), {
      out: join(dir, 'allowed.duckdb'),
      allowUnpriced: true,
      progress: false,
      log: () => {},
    });
    expect(summary.written).toBe(2);
  });
});

describe('the estimate of an unpriced model', () => {
  it('prints "unknown" for its dollars and names it; a priced model keeps its figure', async () => {
    const e = await estimateExperiment(experiment('estimate', ''));
    const reader = e.rows.find((r) => r.stage === 'reader')!;
    expect(reader.priced).toBe(false);
    expect(e.rows.find((r) => r.model === 'priced-judge')?.priced).toBe(true);
    const text = formatEstimate(e);
    expect(text).toMatch(/reader .*local-reader-模型 .*unknown/);
    expect(text).toMatch(/total: unknown \(\$[\d.]+ \+ local-reader-模型 unpriced\) at list prices/);
    expect(text).toMatch(/unknown cost: no price for "local-reader-模型" in llm\.prices/);
  });
});
