/**
 * QA through the runner against an OpenAI-compatible server on 127.0.0.1 (src/llm/testing): reader + judges on a
 * small sample of both datasets; a rerun into a NEW results file makes zero calls and stores identical answers;
 * a killed CLI run resumes without repeating paid calls; the API key reaches the server but no file or log.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperiment } from './config/load-config.ts';
import { REPO_ROOT } from './record/provenance.ts';
import { runExperiment } from './runner.ts';
import { EMBED_AND_FULL, filesUnder, llmYaml, useFakeLlm } from './testing/fake-llm-run.ts';
import { useTestData } from '../../test/data-path.ts';
import { queryFile } from '../store/testing/query-file.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const KEY = 'sk-test-secret-4f9a1c';
const fake = useFakeLlm('adaptmr-qa-', (prompt) => {
  if (/Answer yes or no only/i.test(prompt)) return prompt.includes('Paris') ? 'yes' : 'no';
  if (/CORRECT/.test(prompt) && /WRONG/.test(prompt)) return '{"label": "CORRECT"}';
  return 'I think it was in Paris.';
});
const dir = fake.dir;

beforeAll(() => {
  process.env.ADAPTMR_TEST_KEY = KEY;
});
afterAll(() => {
  delete process.env.ADAPTMR_TEST_KEY;
});

function experiment(name: string, cacheDir: string, datasets: string): string {
  const key = 'apiKeyEnv: ADAPTMR_TEST_KEY';
  return `
name: ${name}
datasets:
${datasets}
${EMBED_AND_FULL}
${llmYaml(fake.server.baseURL, { cacheDir, concurrency: 4, prices: '{ fake-reader: { inputPerMTok: 1, outputPerMTok: 2 } }', reader: key, judge: key })}
qa: {}
`;
}

const SAMPLE = `  - name: longmemeval-oracle\n    sample: { perType: 1 }\n  - name: locomo\n    sample: { perType: 1 }`;

describe('QA runs', () => {
  const cache = join(dir, 'cache');
  const logs: string[] = [];
  const answersSql = `select dataset, question_id, method, answer, judge_verdicts, context_tokens from answers order by all`;

  it('answers, judges and accounts every question, and a rerun into a new file costs nothing', async () => {
    const exp = parseExperiment(experiment('qa', cache, SAMPLE), 'qa.yaml');
    const first = join(dir, 'first.duckdb');
    const s1 = await runExperiment(exp, { out: first, progress: false, log: (l) => logs.push(l) });
    expect(s1.errors).toBe(0);
    const paid = fake.server.count('/v1/chat/completions');
    // 6 LongMemEval + 4 LoCoMo questions × 2 methods, a reader call each; judge calls except LoCoMo category 5.
    expect(paid).toBeGreaterThanOrEqual(20);

    const acc = await queryFile<{ dataset: string; method: string; n: number; mean: number }>(
      first,
      `select dataset, method, n, mean from scores_by_type
        where level = 'qa' and metric = 'accuracy' and k is null and adapt_type = 'all' and native_type = 'all' order by all`,
    );
    // Every reply says Paris, so the fake judge says yes / CORRECT for all: accuracy 1 on every counted question.
    expect(acc.map((r) => `${r.dataset}/${r.method}`)).toEqual([
      'locomo/embed',
      'locomo/full',
      'longmemeval-oracle/embed',
      'longmemeval-oracle/full',
    ]);
    for (const r of acc) expect(r.mean).toBe(1);
    const f1 = await queryFile<{ n: number }>(
      first,
      `select count(*) n from scores where level = 'qa' and metric = 'f1'`,
    );
    expect(f1[0]?.n).toBe(8); // LoCoMo: 4 questions × 2 methods
    // One row per call a method made; identical prompts (e.g. both methods giving a one-session haystack whole)
    // are sent once and the repeats are served from the cache, so uncached rows = HTTP requests.
    const calls = await queryFile<{ n: number; total_cost: number; paid: number }>(
      first,
      `select count(*) n, sum(cost_usd) total_cost, sum((not cached)::int) paid from llm_calls`,
    );
    expect(calls[0]?.paid).toBe(paid);
    expect(calls[0]?.n).toBeGreaterThanOrEqual(paid);
    expect(calls[0]?.total_cost).toBeGreaterThan(0);

    const second = join(dir, 'second.duckdb');
    const s2 = await runExperiment(exp, { out: second, progress: false, log: (l) => logs.push(l) });
    expect(s2.written).toBe(s1.written);
    expect(fake.server.count('/v1/chat/completions')).toBe(paid); // zero new calls: the cache, not the resume
    expect(await queryFile(second, answersSql)).toEqual(await queryFile(first, answersSql));
    const cached = await queryFile<{ n: number; hits: number }>(
      second,
      `select count(*) n, sum(cached::int) hits from llm_calls`,
    );
    expect(cached[0]?.hits).toBe(cached[0]?.n);
    expect(cached[0]?.n).toBe(calls[0]?.n);
  });

  it('a killed run resumes without repeating paid calls', async () => {
    const datasets = `  - name: longmemeval-oracle\n    limit: 12`;
    // What one uninterrupted run pays with an empty cache (identical prompts are asked once, so count, not guess).
    const cleanBefore = fake.server.count('/v1/chat/completions');
    const clean = parseExperiment(experiment('qa-kill', join(dir, 'clean-cache'), datasets), 'clean.yaml');
    await runExperiment(clean, { out: join(dir, 'clean.duckdb'), progress: false, log: () => {} });
    const paidClean = fake.server.count('/v1/chat/completions') - cleanBefore;

    const killCache = join(dir, 'kill-cache');
    const yaml = join(dir, 'kill.yaml');
    writeFileSync(yaml, experiment('qa-kill', killCache, datasets));
    const out = join(dir, 'kill.duckdb');
    const before = fake.server.count('/v1/chat/completions');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(REPO_ROOT, 'bin/adaptmr.js'), 'run', yaml, '--out', out, '--no-progress', '--verbose'],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { ...process.env, ADAPTMR_TEST_KEY: KEY },
        },
      );
      let written = 0;
      child.stderr.on('data', (chunk: Buffer) => {
        written += (chunk.toString().match(/^written /gm) ?? []).length;
        if (written >= 3) child.kill('SIGKILL');
      });
      child.on('exit', (_code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error('child was not killed')),
      );
    });
    const paidBeforeKill = fake.server.count('/v1/chat/completions') - before;
    const savedBeforeKill = filesUnder(join(killCache, 'llm')).filter((f) => f.endsWith('.json')).length;
    await runExperiment(parseExperiment(readFileSync(yaml, 'utf8'), yaml), { out, progress: false, log: () => {} });
    const paidTotal = fake.server.count('/v1/chat/completions') - before;
    // Killed + resumed pays what one clean run pays, plus only the requests that were in flight when the process
    // died (answered by the server but never received and cached): every completed call is served from the cache.
    expect(paidBeforeKill).toBeGreaterThan(0);
    expect(savedBeforeKill).toBeGreaterThan(0);
    const inFlightAtKill = paidBeforeKill - savedBeforeKill;
    expect(paidTotal).toBe(paidClean + inFlightAtKill);
    expect(inFlightAtKill).toBeLessThanOrEqual(4); // llm.concurrency
    const rows = await queryFile<{ a: number; d: number }>(
      out,
      `select count(*) a, count(distinct (question_id, method)) d from answers`,
    );
    expect(rows[0]).toEqual({ a: 24, d: 24 });
  });
  it('never stores or logs the API key, though it was sent (all runs above, the killed child included)', async () => {
    expect(fake.server.requests.some((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    const stored = [...filesUnder(dir)].filter((f) => readFileSync(f).includes(KEY));
    expect(stored).toEqual([]);
    expect(logs.join('\n')).not.toContain(KEY);
  });
});
