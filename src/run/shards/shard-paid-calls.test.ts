/**
 * Paid calls of a sharded QA run against the loopback OpenAI stand-in, one cache folder shared by three shards run at
 * once: the shards together send no more requests than the unsharded run, running them again sends none (a call
 * answered once is never paid again), and the merged file's bill equals the unsharded run's — with one request each
 * and through the Batch API, where every shard submits its own batches.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeResults } from '../../store/merge.ts';
import { queryFile } from '../../store/testing/query-file.ts';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';
import { FAKE_PRICES, llmYaml, useFakeLlm } from '../testing/fake-llm-run.ts';
import { useTestData } from '../../../test/data-path.ts';

useTestData();

const fake = useFakeLlm('adaptmr-shard-calls-', (prompt) => {
  if (/Answer yes or no only/i.test(prompt)) return prompt.includes('Paris') ? 'yes' : 'no';
  // LoCoMo's judge (its prompt asks for a JSON label).
  if (/’CORRECT’ or ’WRONG’/u.test(prompt))
    return JSON.stringify({ label: prompt.includes('Paris') ? 'CORRECT' : 'WRONG' });
  return '我想是在 Paris。';
});
const dir = fake.dir;

function experiment(cacheDir: string, batch: boolean): string {
  const more = batch ? ['  batch: { roles: [reader, judge], pollSeconds: 0.02 }'] : [];
  return `
name: shard-calls
datasets:
  - name: locomo
    sample: { perType: 2 }
    index: { granularity: turn, speakerPrefix: true }
methods:
  - id: embed
    method: unified-embedding
    index: { granularity: session }
    k: 3
${llmYaml(fake.server.baseURL, { cacheDir, concurrency: 3, prices: FAKE_PRICES, reader: 'maxTokens: 50', more })}
qa: {}
`;
}

/** Completions the server computed (each one paid): synchronous requests plus the lines of every batch submitted. */
function paidAtServer(): number {
  const server = fake.server;
  const lines = server.batches
    .created()
    .reduce(
      (n, b) => n + (server.batches.fileText(b.input_file_id) ?? '').split('\n').filter((l) => l !== '').length,
      0,
    );
  return server.count('/v1/chat/completions') + lines;
}

const paidSql = 'select coalesce(sum(cost_usd), 0) AS spent, count(*) AS n from llm_calls where not cached';
const quiet = { progress: false, log: () => {} };

async function shards(tag: string, cache: string, batch: boolean): Promise<string[]> {
  const files = [1, 2, 3].map((i) => join(dir, `${tag}-shard-${i}.duckdb`));
  await Promise.all(
    files.map((out, i) =>
      runExperiment(parseExperiment(experiment(cache, batch), 'x.yaml'), {
        out,
        ...quiet,
        shard: { index: i + 1, count: 3, from: '--shard' },
      }),
    ),
  );
  return files;
}

describe('a sharded QA run with one shared cache', () => {
  for (const batch of [false, true]) {
    it(`pays no more calls than the unsharded run, never twice, and merges into the same bill${batch ? ' (Batch API)' : ''}`, async () => {
      const tag = batch ? 'batch' : 'sync';
      const whole = join(dir, `${tag}-whole.duckdb`);
      let before = paidAtServer();
      await runExperiment(parseExperiment(experiment(join(dir, `${tag}-cache-whole`), batch), 'w.yaml'), {
        out: whole,
        ...quiet,
      });
      const unsharded = paidAtServer() - before;
      const [bill] = await queryFile<{ spent: number; n: number }>(whole, paidSql);
      expect(bill!.n).toBeGreaterThan(10);

      const cache = join(dir, `${tag}-cache-shared`);
      before = paidAtServer();
      const files = await shards(tag, cache, batch);
      const sharded = paidAtServer() - before;
      expect(sharded).toBeGreaterThan(0);
      expect(sharded).toBeLessThanOrEqual(unsharded);

      before = paidAtServer();
      await shards(`${tag}-again`, cache, batch);
      expect(paidAtServer() - before).toBe(0);

      const merged = join(dir, `${tag}-merged.duckdb`);
      await mergeResults(files, merged);
      const [sum] = await queryFile<{ spent: number; n: number }>(merged, paidSql);
      expect(sum!.n).toBe(bill!.n);
      expect(sum!.spent).toBeCloseTo(bill!.spent, 12);
    }, 240_000);
  }
});
