/**
 * End to end: a real QA run (src/run, the OpenAI SDK against the loopback fake server of src/llm/testing) on one
 * question per type of LongMemEval oracle and LoCoMo, then `adaptmr report` on its results file. The fake judge
 * says yes / CORRECT exactly when the reader's reply names Paris, and the fake reader names Paris only for
 * questions whose text has an even length, so the expected accuracy of every cell is computable from the questions
 * table. A second run into a new file is served from the cache: the report shows 100% cache hits and $0 spent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { parisQaChat } from '../llm/testing/paris-qa.ts';
import { parseExperiment } from '../run/config/load-config.ts';
import { runExperiment } from '../run/runner.ts';
import { openResultStore } from '../store/index.ts';
import { runReport } from './report.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-qa-e2e-'));
let server: FakeOpenAiServer;

beforeAll(async () => {
  server = await startFakeOpenAiServer({ chat: parisQaChat() });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const yaml = (): string => `
name: qa-e2e
datasets:
  - name: longmemeval-oracle
    sample: { perType: 1 }
  - name: locomo
    sample: { perType: 1 }
methods:
  - id: embed
    method: unified-embedding
    index: { granularity: session }
    k: 3
metrics: { ks: [5] }
llm:
  cache: { mode: read-write, dir: ${join(dir, 'cache')} }
  maxRetries: 0
  prices: { fake-reader: { inputPerMTok: 1, outputPerMTok: 2 } }
  roles:
    reader: { baseURL: ${server.baseURL}, model: fake-reader }
    judge: { baseURL: ${server.baseURL}, model: fake-judge }
qa: {}
`;

describe('adaptmr report on a real QA run', () => {
  it('prints accuracy that matches the judged answers, and a rerun costs nothing', async () => {
    const exp = parseExperiment(yaml(), 'qa-e2e.yaml');
    const first = join(dir, 'first.duckdb');
    await runExperiment(exp, { out: first, progress: false, log: () => {} });
    const store = await openResultStore(first, { readOnly: true });
    // Expected from the fake's rule alone (even-length question → Paris → judged correct), not from the scores.
    const truth = await store.query<{ dataset: string; n: number; correct: number; spent: number }>(
      `SELECT q.dataset, count(*) AS n, sum((length(q.text) % 2 = 0)::INT) AS correct, any_value(c.spent) AS spent
       FROM questions q
       JOIN scores s ON s.run_id = q.run_id AND s.dataset = q.dataset AND s.question_id = q.question_id
       JOIN (SELECT dataset, sum(cost_usd) FILTER (WHERE NOT cached) AS spent FROM llm_calls GROUP BY dataset) c ON c.dataset = q.dataset
       WHERE s.level = 'qa' AND s.metric = 'accuracy' AND s.counted GROUP BY q.dataset ORDER BY q.dataset`,
    );
    await store.close();
    expect(truth.map((t) => t.dataset)).toEqual(['locomo', 'longmemeval-oracle']);

    const out = await runReport(first, { outDir: join(dir, 'out'), ks: [5] });
    for (const t of truth) {
      const qa = out.text.slice(out.text.indexOf('QA accuracy (LLM judge) by AdaptMR type'));
      const line = qa.split('\n').find((l) => l.includes(`│ ${t.dataset} `) && l.includes('│ embed '));
      // mean, then the bootstrap CI the run computed, then n
      expect(line).toMatch(
        new RegExp(`│ ${((t.correct / t.n) * 100).toFixed(1)}% \\[[0-9.]+, [0-9.]+\\] \\(${t.n}\\) +│$`, 'u'),
      );
    }
    // Both branches of the fake reader were exercised, so the accuracy is neither 0 nor 1 overall.
    const all = truth.reduce((s, t) => s + t.correct, 0) / truth.reduce((s, t) => s + t.n, 0);
    expect(all).toBeGreaterThan(0);
    expect(all).toBeLessThan(1);
    expect(out.text).toMatch(/│ longmemeval-oracle │ embed +│ reader +│/u);
    expect(out.text).toMatch(/│ locomo +│ embed +│ judge +│/u);
    const spent = truth.reduce((s, t) => s + t.spent, 0);
    expect(spent).toBeGreaterThan(0);
    expect(out.text).toContain(`(money this file actually cost): $${spent.toFixed(4)}`);
    expect(out.qaChart).not.toBeNull();

    const paid = server.count('/v1/chat/completions');
    const second = join(dir, 'second.duckdb');
    await runExperiment(exp, { out: second, progress: false, log: () => {} });
    expect(server.count('/v1/chat/completions')).toBe(paid);
    const again = await runReport(second, { outDir: join(dir, 'out2'), ks: [5] });
    expect(again.text).toContain('(money this file actually cost): $0.0000');
    const llmRows = again.text.split('\n').filter((l) => /│ (reader|judge) +│/u.test(l));
    expect(llmRows).toHaveLength(4); // 2 datasets × (reader, judge)
    for (const l of llmRows) expect(l.split('│').map((c) => c.trim())[10]).toBe('100%');
  });
});
