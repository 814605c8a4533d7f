/**
 * `llm.budgetUsd` through the runner against the loopback OpenAI stand-in: a run given part of what it needs stops
 * cleanly without spending past its budget, marks itself stopped, and a rerun with a larger budget ends with exactly
 * the rows an uninterrupted run stores (answers, scores, retrievals, paid calls), paying no call twice.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';
import { EMBED_AND_FULL, FAKE_PRICES, llmYaml, useFakeLlm } from '../testing/fake-llm-run.ts';
import { useTestData } from '../../../test/data-path.ts';
import { queryFile } from '../../store/testing/query-file.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const fake = useFakeLlm('adaptmr-budget-', (prompt) =>
  /Answer yes or no only/i.test(prompt) ? (prompt.includes('Paris') ? 'yes' : 'no') : '我想是在 Paris。',
);
const dir = fake.dir;

function experiment(cacheDir: string, budget: number | undefined, batch = false): string {
  const more = [
    ...(budget !== undefined ? [`  budgetUsd: ${budget}`] : []),
    ...(batch ? ['  batch: { roles: [reader, judge], pollSeconds: 0.02 }'] : []),
  ];
  return `
name: budget
datasets:
  - name: longmemeval-oracle
    limit: 8
${EMBED_AND_FULL}
${llmYaml(fake.server.baseURL, { cacheDir, concurrency: 3, prices: FAKE_PRICES, reader: 'maxTokens: 50', more })}
qa: {}
`;
}

/** Everything a run stores about its questions, without timings. */
const TABLES = [
  'select question_id, method, answer, judge_verdicts, context_tokens, error from answers order by all',
  'select question_id, method, level, metric, k, value, counted from scores order by all',
  'select question_id, method, unit_ids, scores, no_memory, context, error from retrievals order by all',
  'select question_id, method, stage, model, prompt_tokens, completion_tokens, cached, cost_usd, error, batch from llm_calls order by all',
];
const paidSql = 'select coalesce(sum(cost_usd), 0) AS spent, count(*) AS n from llm_calls where not cached';

describe('a budget', () => {
  for (const batch of [false, true]) {
    it(`stops a run before it spends past the budget; a resume with a larger one stores what an uninterrupted run stores${batch ? ' (Batch API)' : ''}`, async () => {
      const tag = batch ? 'batch' : 'sync';
      const whole = join(dir, `${tag}-whole.duckdb`);
      await runExperiment(parseExperiment(experiment(join(dir, `${tag}-cache-whole`), undefined, batch), 'w.yaml'), {
        out: whole,
        progress: false,
        log: () => {},
      });
      const [full] = await queryFile<{ spent: number; n: number }>(whole, paidSql);
      expect(full!.n).toBeGreaterThan(10);

      const out = join(dir, `${tag}-stopped.duckdb`);
      const cache = join(dir, `${tag}-cache-stopped`);
      const budget = full!.spent * 0.4;
      const before = fake.server.requests.length;
      const logs: string[] = [];
      const stopped = await runExperiment(parseExperiment(experiment(cache, budget, batch), 's.yaml'), {
        out,
        progress: false,
        log: (l) => logs.push(l),
      });
      expect(stopped.stopped).toMatch(/stopped by llm\.budgetUsd/);
      expect(logs.join('\n')).toMatch(/Rerun with a larger llm\.budgetUsd/);
      expect(stopped.written).toBeLessThan(8);
      const [spent] = await queryFile<{ spent: number; n: number }>(out, paidSql);
      expect(spent!.spent).toBeLessThanOrEqual(budget);
      expect(spent!.n).toBeGreaterThan(0);
      expect(await queryFile(out, 'select status from runs')).toEqual([{ status: 'stopped' }]);
      const sentStopped = fake.server.requests.length - before;

      const resumed = await runExperiment(parseExperiment(experiment(cache, full!.spent * 10, batch), 's.yaml'), {
        out,
        progress: false,
        log: () => {},
      });
      expect(resumed.stopped).toBeUndefined();
      expect(await queryFile(out, 'select count(distinct question_id) AS n from retrievals')).toEqual([{ n: 8 }]);
      expect(await queryFile(out, 'select status from runs')).toEqual([{ status: 'done' }]);
      for (const sql of TABLES.slice(0, 3)) expect(await queryFile(out, sql)).toEqual(await queryFile(whole, sql));
      // The same calls at the same cost, each paid once. In batch mode, of two methods asking the identical request
      // (the same judge prompt) the one that asked first records it as paid and the other as a cache hit; a stop can
      // change which asked first, so there the comparison leaves out the `cached` flag.
      const calls = batch ? TABLES[3]!.replace(' cached,', '') : TABLES[3]!;
      expect(await queryFile(out, calls)).toEqual(await queryFile(whole, calls));
      const [after] = await queryFile<{ spent: number; n: number }>(out, paidSql);
      expect(after!.n).toBe(full!.n);
      expect(after!.spent).toBeCloseTo(full!.spent, 12);
      expect(sentStopped).toBeGreaterThan(0);
    });
  }
});
