/**
 * Nothing is paid twice or at a negative price, whatever the provider's replies and files say: a Batch API request
 * the output file answers and the error file lists as well is an answer plus a recorded error, never sent again; a
 * reply whose usage holds negative or fractional token counts is an error row (synchronous and batch), never a
 * negative cost, and a batch line with such usage is not sent again either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../llm/testing/fake-openai-server.ts';
import { queryFile } from '../../store/testing/query-file.ts';
import { parseExperiment } from '../config/load-config.ts';
import { runExperiment } from '../runner.ts';
import { tinyLongMemEval } from '../testing/tiny-longmemeval.ts';

const QUESTIONS = 3;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-paid-once-'));
let server: FakeOpenAiServer;
/** Reader replies get this usage (undefined: the server's own word counts). */
let readerUsage: { promptTokens: number; completionTokens: number } | undefined;

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    chat: (body) => {
      const prompt = body.messages.map((m) => m.content).join('\n');
      if (/Answer yes or no only/i.test(prompt)) return 'yes';
      return readerUsage ? { text: 'Paris', usage: readerUsage } : 'Paris';
    },
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function experiment(name: string, batch: boolean): string {
  return `
name: ${name}
datasets: [${tinyLongMemEval(dir, QUESTIONS, name)}]
methods: [{ id: bm25, method: bm25, k: 1 }]
llm:
  cache: { mode: read-write, dir: ${join(dir, `${name}-cache`)} }
  maxRetries: 2
  retryBaseMs: 1
  prices:
    fake-reader: { inputPerMTok: 0.15, outputPerMTok: 0.6 }
    fake-judge: { inputPerMTok: 2.5, outputPerMTok: 10 }
  roles:
    reader: { baseURL: ${server.baseURL}, model: fake-reader }
    judge: { baseURL: ${server.baseURL}, model: fake-judge }
${batch ? '  batch: { roles: [reader, judge], pollSeconds: 0.02 }' : ''}
qa: {}
`;
}

async function run(name: string, batch: boolean) {
  const out = join(dir, `${name}.duckdb`);
  const summary = await runExperiment(parseExperiment(experiment(name, batch), `${name}.yaml`), {
    out,
    progress: false,
    log: () => {},
  });
  return { out, summary };
}

const chats = () => server.count('/v1/chat/completions');
const readerCalls = (out: string) =>
  queryFile<{ n: number; paid: number; errors: number; cost: number; negative: number }>(
    out,
    `select count(*)::INTEGER AS n, count(*) filter (where error is null)::INTEGER AS paid,
       count(*) filter (where error is not null)::INTEGER AS errors, sum(cost_usd) AS cost,
       count(*) filter (where cost_usd < 0 or prompt_tokens < 0 or completion_tokens < 0)::INTEGER AS negative
     from llm_calls where stage = 'reader' and not cached`,
  );

describe('paid at most once', () => {
  it('a batch request in both the output and the error file is answered once and never sent singly', async () => {
    server.batches.options.alsoInErrorFile = () => true;
    const before = chats();
    try {
      const { out, summary } = await run('dup', true);
      expect(summary.errors).toBe(0);
      expect(chats()).toBe(before); // nothing sent singly
      const [reader] = await readerCalls(out);
      expect(reader).toMatchObject({ paid: QUESTIONS, errors: QUESTIONS, negative: 0 });
      const errors = await queryFile<{ error: string }>(out, `select error from llm_calls where error is not null`);
      for (const { error } of errors) expect(error).toMatch(/listed this request again .*nothing is sent again/);
      const answers = await queryFile<{ answer: string }>(out, 'select answer from answers where error is null');
      expect(answers).toHaveLength(QUESTIONS);
    } finally {
      delete server.batches.options.alsoInErrorFile;
    }
  });
});

describe('usage that is not a count of tokens', () => {
  it.each([
    ['negative', { promptTokens: -1_000_000, completionTokens: 200 }],
    ['fractional', { promptTokens: 10.5, completionTokens: 2 }],
  ])('a synchronous reply with %s usage is an error row, never priced', async (label, usage) => {
    readerUsage = usage;
    try {
      const { out, summary } = await run(`sync-${label}`, false);
      expect(summary.failures.reader).toBe(QUESTIONS);
      const [reader] = await readerCalls(out);
      expect(reader).toMatchObject({ paid: 0, negative: 0, cost: 0 });
      const answers = await queryFile<{ error: string }>(out, 'select error from answers');
      expect(answers).toHaveLength(QUESTIONS);
      for (const { error } of answers) expect(error).toMatch(/usage\.prompt_tokens is .*not a count of tokens/);
    } finally {
      readerUsage = undefined;
    }
  });

  it('a batch line with negative usage is an error row and is not sent again', async () => {
    readerUsage = { promptTokens: 12, completionTokens: -3 };
    const before = chats();
    try {
      const { out, summary } = await run('batch-negative', true);
      expect(chats()).toBe(before);
      expect(summary.failures.reader).toBe(QUESTIONS);
      const [reader] = await readerCalls(out);
      expect(reader).toMatchObject({ paid: 0, negative: 0, cost: 0 });
      const answers = await queryFile<{ error: string }>(out, 'select error from answers');
      for (const { error } of answers) expect(error).toMatch(/usage\.completion_tokens is -3/);
    } finally {
      readerUsage = undefined;
    }
  });
});
