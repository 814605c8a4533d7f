/**
 * `llm.batch` through the runner against the loopback OpenAI stand-in (its Files and Batches endpoints): reader and
 * judge in batch mode send no single chat request, store the answers a synchronous run stores, at half its recorded
 * cost; a run killed (SIGKILL, a real child process) while polling resumes by polling the stored batch, submitting
 * nothing again; a failed line is sent singly.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExperiment } from '../config/load-config.ts';
import { REPO_ROOT } from '../record/provenance.ts';
import { runExperiment } from '../runner.ts';
import { EMBED_AND_FULL, FAKE_PRICES, llmYaml, useFakeLlm } from '../testing/fake-llm-run.ts';
import { useTestData } from '../../../test/data-path.ts';
import { queryFile } from '../../store/testing/query-file.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

/** Reader prompts to fail once (HTTP 500), whichever way they are sent. */
const failOnce = new Set<string>();
const fake = useFakeLlm('adaptmr-batch-', (prompt) => {
  for (const marker of failOnce) {
    if (prompt.includes(marker)) {
      failOnce.delete(marker);
      return { status: 500 };
    }
  }
  if (/Answer yes or no only/i.test(prompt)) return prompt.includes('Paris') ? 'yes' : 'no';
  return 'I think it was in Paris.';
});
const dir = fake.dir;

function experiment(name: string, cacheDir: string, batch: string): string {
  return `
name: ${name}
datasets:
  - name: longmemeval-oracle
    limit: 6
${EMBED_AND_FULL}
${llmYaml(fake.server.baseURL, { cacheDir, concurrency: 4, prices: FAKE_PRICES })}
${batch}
qa: {}
`;
}
const BATCH = '  batch: { roles: [reader, judge], pollSeconds: 0.02 }';

const answersSql =
  'select question_id, method, answer, judge_verdicts, context_tokens, error from answers order by all';
const costSql = `select stage, count(*) n, sum(prompt_tokens) p, sum(completion_tokens) c, sum(cost_usd) AS cost, bool_and(batch) AS all_batch
  from llm_calls where not cached and error is null group by stage order by stage`;
const chat = () => fake.server.count('/v1/chat/completions');

describe('Batch API runs', () => {
  const syncFile = join(dir, 'sync.duckdb');

  it('answers through two batches (reader, then judge) with the synchronous answers, at half the recorded cost', async () => {
    await runExperiment(parseExperiment(experiment('batch-qa', join(dir, 'sync-cache'), ''), 'sync.yaml'), {
      out: syncFile,
      progress: false,
      log: () => {},
    });
    const chatBefore = chat();
    const batchesBefore = fake.server.batches.created().length;
    const out = join(dir, 'batch.duckdb');
    const logs: string[] = [];
    const summary = await runExperiment(
      parseExperiment(experiment('batch-qa', join(dir, 'batch-cache'), BATCH), 'batch.yaml'),
      { out, progress: false, log: (l) => logs.push(l) },
    );
    expect(summary.errors).toBe(0);
    expect(summary.written).toBe(6);
    expect(chat()).toBe(chatBefore); // not one request sent singly
    const batches = fake.server.batches.created().slice(batchesBefore);
    expect(batches.map((b) => [b.model, b.status])).toEqual([
      ['fake-reader', 'completed'],
      ['fake-judge', 'completed'],
    ]);
    expect(await queryFile(out, answersSql)).toEqual(await queryFile(syncFile, answersSql));

    const sync = await queryFile<{ stage: string; n: number; p: number; c: number; cost: number; all_batch: boolean }>(
      syncFile,
      costSql,
    );
    const viaBatch = await queryFile<{
      stage: string;
      n: number;
      p: number;
      c: number;
      cost: number;
      all_batch: boolean;
    }>(out, costSql);
    expect(viaBatch.map((r) => [r.stage, r.n, r.p, r.c, r.all_batch])).toEqual(
      sync.map((r) => [r.stage, r.n, r.p, r.c, true]),
    );
    for (const [i, r] of viaBatch.entries()) expect(r.cost).toBeCloseTo(sync[i]!.cost / 2, 12);
    expect(sync.every((r) => !r.all_batch)).toBe(true);
    // The run identity ignores how calls are paid for: switching to batch mode (or adding a budget) resumes the same run.
    const same = (batch: string) => parseExperiment(experiment('batch-qa', join(dir, 'c'), batch), 'x.yaml').configHash;
    expect(same(BATCH)).toBe(same(''));
    expect(same('  budgetUsd: 5')).toBe(same(''));
  });

  it('asks every judge repeat in the same batch: three repeats cost one judge round, not three', async () => {
    const batchesBefore = fake.server.batches.created().length;
    const out = join(dir, 'repeats.duckdb');
    const yaml = experiment('batch-repeats', join(dir, 'repeats-cache'), BATCH).replace(
      'qa: {}',
      'qa: { judge: { repeats: 3 } }',
    );
    const summary = await runExperiment(parseExperiment(yaml, 'repeats.yaml'), { out, progress: false, log: () => {} });
    expect(summary.errors).toBe(0);
    expect(
      fake.server.batches
        .created()
        .slice(batchesBefore)
        .map((b) => b.model),
    ).toEqual(['fake-reader', 'fake-judge']);
    const judged = await queryFile<{ n: number }>(
      out,
      "select count(*)::INTEGER AS n from llm_calls where stage = 'judge' and not cached and error is null",
    );
    // 6 questions × 3 repeats: both methods' answers are the same text here, so their judge requests are one request
    // each (paid once, by the first method to ask).
    expect(judged).toEqual([{ n: 6 * 3 }]);
    const verdicts = await queryFile<{ v: string }>(out, 'select judge_verdicts::VARCHAR AS v from answers');
    for (const { v } of verdicts) expect((JSON.parse(v) as { correct: boolean[] }[])[0]!.correct).toHaveLength(3);
  });

  it('sends a failed batch line singly on the next pass, recording the failure', async () => {
    failOnce.add('I will give you several history chats');
    const before = chat();
    const out = join(dir, 'fail.duckdb');
    const summary = await runExperiment(
      parseExperiment(experiment('batch-fail', join(dir, 'fail-cache'), BATCH), 'fail.yaml'),
      { out, progress: false, log: () => {} },
    );
    expect(summary.errors).toBe(0);
    expect(chat() - before).toBe(1);
    const rows = await queryFile<{ batch: boolean; error: string | null }>(
      out,
      `select batch, error from llm_calls where stage = 'reader' and (error is not null or not batch) order by batch`,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ batch: false, error: null });
    expect(rows[1]!.batch).toBe(true);
    expect(rows[1]!.error).toMatch(/line failed \(HTTP 500\); sent singly/);
    expect(await queryFile(out, answersSql)).toEqual(await queryFile(syncFile, answersSql));
  });

  it('a run killed while polling resumes by polling the stored batch: nothing is uploaded or submitted again', async () => {
    const yaml = join(dir, 'kill.yaml');
    writeFileSync(yaml, experiment('batch-kill', join(dir, 'kill-cache'), BATCH));
    const out = join(dir, 'kill.duckdb');
    const batchesBefore = fake.server.batches.created().length;
    fake.server.batches.options.hold = true;
    const polls = () =>
      fake.server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/batches/')).length;
    const pollsBefore = polls();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(REPO_ROOT, 'bin/adaptmr.js'), 'run', yaml, '--out', out, '--no-progress'],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      const timer = setInterval(() => {
        // Killed once it has polled the submitted batch a few times.
        if (polls() - pollsBefore >= 3) child.kill('SIGKILL');
      }, 20);
      child.on('exit', (_code, signal) => {
        clearInterval(timer);
        if (signal === 'SIGKILL') resolve();
        else reject(new Error('child was not killed'));
      });
    });
    const submitted = fake.server.batches.created().slice(batchesBefore);
    expect(submitted.map((b) => b.status)).toEqual(['in_progress']);
    const uploadCount = () => fake.server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/files').length;
    const uploads = uploadCount();
    fake.server.batches.options.hold = false;
    const logs: string[] = [];
    const summary = await runExperiment(
      parseExperiment(experiment('batch-kill', join(dir, 'kill-cache'), BATCH), yaml),
      { out, progress: false, log: (l) => logs.push(l) },
    );
    expect(summary.written).toBe(6);
    expect(logs.join('\n')).toContain(`resuming 1 recorded batch(es): ${submitted[0]!.id}`);
    const after = fake.server.batches.created().slice(batchesBefore);
    // The reader batch once (the one the killed run submitted, polled to completion), then the judge's.
    expect(after.map((b) => [b.id, b.model])).toEqual([
      [submitted[0]!.id, 'fake-reader'],
      [after[1]!.id, 'fake-judge'],
    ]);
    expect(uploadCount() - uploads).toBe(1); // the judge's file only
    expect(await queryFile(out, answersSql)).toEqual(await queryFile(syncFile, answersSql));
    const paid = await queryFile<{ n: number }>(
      out,
      'select count(*) n from llm_calls where not cached and error is null',
    );
    expect(paid[0]!.n).toBe(
      (
        await queryFile<{ n: number }>(syncFile, 'select count(*) n from llm_calls where not cached and error is null')
      )[0]!.n,
    );
  });
});
