/**
 * `qa.ks`: one retrieval at the largest cutoff, read at each cutoff; accuracy by cutoff in `scores` (k = the cutoff)
 * and in the report, with the cost per correct answer. The scripted reader answers "Paris" only when it is shown at
 * least two memories, so the expected accuracies are known by hand: 0 at top 1, 1 at top 2 and top 3.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { runReport } from '../report/report.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import { useTestData } from '../../test/data-path.ts';
import { queryFile } from '../store/testing/query-file.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-cutoffs-'));
let server: FakeOpenAiServer;

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    chat: (body) => {
      const prompt = body.messages.map((m) => m.content).join('\n');
      if (/Answer yes or no only/i.test(prompt)) return prompt.includes('Paris') ? 'yes' : 'no';
      return /\n\(2\) \[/u.test(prompt) ? '答案是 Paris。' : '我不知道。';
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const yaml = (cache: string) => `
name: cutoffs
datasets:
  - name: longmemeval-s
    limit: 3
methods:
  - id: bm25
    method: bm25
    index: { granularity: session }
    k: 10
  - id: full
    method: full-context
    index: { granularity: session }
    options: { maxContextTokens: 2000 }
llm:
  cache: { mode: read-write, dir: ${cache} }
  prices: { fake: { inputPerMTok: 1, outputPerMTok: 2 } }
  roles:
    reader: { baseURL: ${server.baseURL}, model: fake }
    judge: { baseURL: ${server.baseURL}, model: fake }
qa: { ks: [3, 1, 2] }
`;

describe('qa.ks', () => {
  it('retrieves once at the largest cutoff and reads at each; the report shows accuracy by cutoff and cost per correct answer', async () => {
    const out = join(dir, 'r.duckdb');
    const summary = await runExperiment(parseExperiment(yaml(join(dir, 'cache')), 'c.yaml'), {
      out,
      progress: false,
      log: () => {},
    });
    expect(summary.errors).toBe(0);
    expect(await queryFile(out, `select method, k from methods order by method`)).toEqual([
      { method: 'bm25', k: 3 },
      { method: 'full', k: 3 },
    ]);
    expect(await queryFile(out, `select distinct len(unit_ids) AS n from retrievals where method = 'bm25'`)).toEqual([
      { n: 3 },
    ]);
    // Units methods only; one row per question and cutoff, answered in Chinese by the scripted reader.
    expect(
      await queryFile(
        out,
        `select method, cutoff, count(*)::INTEGER AS n, any_value(answer) AS a from cutoff_answers group by all order by all`,
      ),
    ).toEqual([
      { method: 'bm25', cutoff: 1, n: 3, a: '我不知道。' },
      { method: 'bm25', cutoff: 2, n: 3, a: '答案是 Paris。' },
      { method: 'bm25', cutoff: 3, n: 3, a: '答案是 Paris。' },
    ]);
    expect(
      await queryFile(
        out,
        `select k, mean from scores_by_type where method = 'bm25' and level = 'qa' and metric = 'accuracy' and adapt_type = 'all' and native_type = 'all' order by k nulls first`,
      ),
    ).toEqual([
      { k: null, mean: 1 },
      { k: 1, mean: 0 },
      { k: 2, mean: 1 },
      { k: 3, mean: 1 },
    ]);
    expect(await queryFile(out, `select distinct stage from llm_calls where method = 'bm25' order by stage`)).toEqual(
      ['judge', 'judge:k1', 'judge:k2', 'judge:k3', 'reader', 'reader:k1', 'reader:k2', 'reader:k3'].map((stage) => ({
        stage,
      })),
    );
    const report = await runReport(out, { outDir: join(dir, 'report') });
    expect(report.text).toMatch(/QA accuracy by retrieval cutoff/);
    expect(report.text).toMatch(/│ longmemeval-s │ bm25\s*│ 3\s*│ 0\.000 │ 1\.000 │ 1\.000 │/);
    expect(report.text).toMatch(/Cost per correct answer/);
    // bm25's own cost: its reader calls (judge and cutoff reads left out), over 3 correct answers.
    const [own] = await queryFile<{ cost: number }>(
      out,
      `select sum(cost_usd) AS cost from llm_calls where method = 'bm25' and stage = 'reader'`,
    );
    expect(report.text).toContain(`$${(own!.cost / 3).toFixed(4)}`);
  });
});
