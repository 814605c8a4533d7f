/**
 * A judge whose replies are no verdict ("banana") makes error rows, never "wrong" answers, and the run warns once
 * they pass 5 % of its answers; a judge that answers yes/no stays silent. `rejudge` on a results file whose stored
 * config is damaged says so in one line naming the run and the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { openResultStore } from '../../store/index.ts';
import { queryFile } from '../../store/testing/query-file.ts';
import { rejudgeFile } from '../../tools/rejudge/rejudge.ts';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';
import { tinyLongMemEval } from '../testing/tiny-longmemeval.ts';

const QUESTIONS = 4;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-unreadable-'));
let server: FakeOpenAiServer;
let judgeReply = 'banana';
beforeAll(async () => {
  server = await startFakeOpenAiServer({
    chat: (body) => (body.model === 'judge-model' ? judgeReply : '巴黎 Paris'),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(name: string) {
  const exp = parseExperiment(
    `
name: ${name}
datasets: [${tinyLongMemEval(dir, QUESTIONS, name)}]
methods: [{ id: bm25, method: bm25, k: 1 }]
llm:
  cache: { mode: read-write, dir: ${join(dir, `${name}-cache`)} }
  maxRetries: 0
  roles:
    reader: { baseURL: ${server.baseURL}, model: reader-model }
    judge: { baseURL: ${server.baseURL}, model: judge-model }
qa: {}
`,
    `${name}.yaml`,
  );
  const out = join(dir, `${name}.duckdb`);
  const logs: string[] = [];
  const summary = await runExperiment(exp, { out, progress: false, log: (l) => logs.push(l) });
  return { out, summary, logs };
}

describe('unreadable judge replies', () => {
  it('are error rows, not wrong answers, with one warning line past 5 %', async () => {
    judgeReply = 'banana';
    const { out, summary, logs } = await run('banana');
    expect(summary.failures.judge).toBe(QUESTIONS);
    const rows = await queryFile<{ error: string | null; v: string }>(
      out,
      'select error, judge_verdicts::VARCHAR AS v from answers',
    );
    expect(rows).toHaveLength(QUESTIONS);
    for (const r of rows) expect(r.error).toMatch(/^the judge reply is not a verdict: "banana" \(expected yes or no\)/);
    const scored = await queryFile<{ n: number }>(
      out,
      "select count(*)::INTEGER AS n from scores where metric = 'accuracy'",
    );
    expect(scored).toEqual([{ n: 0 }]); // not one answer counted as wrong
    const warnings = logs.filter((l) => l.startsWith('warning:') && l.includes('not a verdict'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/warning: 4 of 4 answers \(100\.0 %\) have a judge reply that is not a verdict/);
  });

  it('a judge that answers yes or no gives verdicts and no warning', async () => {
    judgeReply = 'No.';
    const { out, summary, logs } = await run('no');
    expect(summary.errors).toBe(0);
    const wrong = await queryFile<{ n: number; mean: number }>(
      out,
      "select count(*)::INTEGER AS n, avg(value) AS mean from scores where metric = 'accuracy'",
    );
    expect(wrong).toEqual([{ n: QUESTIONS, mean: 0 }]); // the same query counts verdicts where there are some
    expect(logs.some((l) => l.includes('not a verdict'))).toBe(false);
  });
});

describe('rejudge on a damaged stored config', () => {
  it('is one line naming the run and the file', async () => {
    judgeReply = 'yes';
    const { out, summary } = await run('damaged');
    const store = await openResultStore(out);
    await store.query(`UPDATE runs SET config_json = '{"name": "damag' WHERE run_id = $1`, [summary.runId]);
    await store.close();
    const err = await rejudgeFile(out, { judges: ['j2:judge-model:strict'], log: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `damaged\\.duckdb: run ${summary.runId}: its stored config \\(runs\\.config_json\\) is not valid JSON`,
      ),
    );
    expect((err as Error).message).not.toContain('\n');
  });
});
