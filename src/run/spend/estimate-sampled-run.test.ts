// The sampled `--estimate` (estimate-sample.ts) against the full rendering of every prompt, on real LongMemEval
// questions: a sample that would cover most of the selection is not taken (the same rows, exact); a small one computes
// fewer questions, marks its rows scaled, and each row's calls are the selection's and its tokens within the standard
// error it reports of the full estimate's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { useTestData } from '../../../test/data-path.ts';
import { estimateExperiment, type Estimate } from './estimate.ts';
import { parseExperiment } from '../config/load-config.ts';

useTestData();

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-estimate-sample-'));
let refusing: FakeOpenAiServer;
beforeAll(async () => {
  refusing = await startFakeOpenAiServer({
    chat: () => {
      throw new Error('this server answers no request');
    },
  });
});
afterAll(async () => {
  await refusing.close();
  rmSync(dir, { recursive: true, force: true });
});

const experiment = (limit: number) =>
  parseExperiment(
    `
name: estimate-sample
datasets:
  - name: longmemeval-oracle
    limit: ${limit}
methods:
  - id: embed
    method: unified-embedding
    index: { granularity: session }
    k: 2
  - id: full
    method: full-context
    index: { granularity: session }
llm:
  cache: { mode: off }
  maxRetries: 0
  prices:
    fake-reader: { inputPerMTok: 0.15, outputPerMTok: 0.6 }
    fake-judge: { inputPerMTok: 2.5, outputPerMTok: 10 }
  roles:
    reader: { baseURL: ${refusing.baseURL}, model: fake-reader, apiKeyEnv: ADAPTMR_ESTIMATE_UNSET_KEY }
    judge: { baseURL: ${refusing.baseURL}, model: fake-judge }
qa: {}
`,
    'e.yaml',
  );

const byRow = (e: Estimate) => new Map(e.rows.map((r) => [`${r.method}/${r.stage}`, r]));

describe('--estimate on a sample of the questions', () => {
  it('computes every question when the sample would cover more than a quarter of them: the same rows', async () => {
    const exp = experiment(12);
    const full = await estimateExperiment(exp, { perType: 0 });
    const sampled = await estimateExperiment(exp, { perType: 2 });
    expect(sampled.sample).toBeUndefined();
    expect(sampled.rows).toEqual(full.rows);
    expect(full.rows.every((r) => r.exact && r.relStdErr === 0)).toBe(true);
  });

  it('scales a small sample to the selection, within the standard error it reports', async () => {
    const exp = experiment(60);
    const full = await estimateExperiment(exp, { perType: 0 });
    const sampled = await estimateExperiment(exp, { perType: 2 });
    expect(refusing.requests).toHaveLength(0);
    expect(sampled.sample?.drawn).toBeLessThanOrEqual(15);
    await expect(estimateExperiment(exp, { perType: 1 })).rejects.toThrow(/needs 2 questions/);
    expect(sampled.questions).toBe(full.questions);
    const exact = byRow(full);
    for (const r of sampled.rows) {
      const e = exact.get(`${r.method}/${r.stage}`)!;
      expect(r.exact).toBe(false);
      // One reader and one judge call a question: counted, not estimated.
      expect(r.calls).toBe(e.calls);
      const miss = Math.abs(r.inputTokens - e.inputTokens) / e.inputTokens;
      expect(miss).toBeLessThanOrEqual(Math.max(4 * r.relStdErr, 0.005));
      const paidMiss = Math.abs(r.paidInputTokens - e.paidInputTokens) / e.paidInputTokens;
      expect(paidMiss).toBeLessThanOrEqual(Math.max(4 * r.relStdErr, 0.005));
    }
  });
});
