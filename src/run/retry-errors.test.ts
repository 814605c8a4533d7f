/**
 * Error rows are retried on resume: a run against a failing loopback endpoint (embeddings and chat answer
 * HTTP 500) stores error rows — retrieval errors for the embedding method, reader errors for the BM25 method. A
 * rerun of the same experiment into the same file with `retryErrors: false` (`--no-retry-errors`) keeps them; a
 * plain rerun against the now working endpoint computes exactly those questions again and replaces their rows:
 * no error left, one row per (question, method), nothing duplicated, the calls of the failed attempt still counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../llm/testing/fake-openai-server.ts';
import { openResultStore } from '../store/index.ts';
import { parseExperiment } from './config/load-config.ts';
import { runExperiment } from './runner.ts';
import { useTestData } from '../../test/data-path.ts';

useTestData(); // its runs find LoCoMo / LongMemEval by name on the data search path

const QUESTIONS = 3;
const METHODS = 2;
const dir = mkdtempSync(join(tmpdir(), 'adaptmr-retry-'));
let server: FakeOpenAiServer;
let failing = true;

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    // A throwing handler makes the server answer HTTP 500 (fake-openai-server.ts).
    embed: (text, dim) => {
      if (failing) throw new Error('embeddings down');
      const v = Array.from({ length: dim }, (_, i) => ((text.length + i) % 3) + 1);
      return v;
    },
    // The judge answers a verdict (a reply that is none is an error row: src/eval/qa/verdict.ts).
    chat: (body) =>
      failing
        ? { status: 500 }
        : /Answer yes or no only/i.test(body.messages.map((m) => m.content).join('\n'))
          ? 'yes'
          : 'Paris',
  });
  process.env.ADAPTMR_RETRY_TEST_KEY = 'sk-retry-test';
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const yaml = (): string => `
name: retry
datasets:
  - name: longmemeval-oracle
    limit: ${QUESTIONS}
embedder: { name: openai, options: { model: e, dimensions: 4, baseURL: ${server.baseURL}, apiKeyEnv: ADAPTMR_RETRY_TEST_KEY, maxRetries: 0, cache: false } }
methods:
  - id: embed
    method: unified-embedding
    k: 3
  - id: bm25
    method: bm25
    k: 3
llm:
  cache: { mode: read-write, dir: ${join(dir, 'llm-cache')} }
  maxRetries: 0
  roles:
    reader: { baseURL: ${server.baseURL}, model: r, apiKeyEnv: ADAPTMR_RETRY_TEST_KEY }
    judge: { baseURL: ${server.baseURL}, model: j, apiKeyEnv: ADAPTMR_RETRY_TEST_KEY }
qa: {}
`;

interface State {
  retrievals: number;
  retrievalErrors: number;
  answers: number;
  answerErrors: number;
  scoreDuplicates: number;
  failedCalls: number;
}

async function state(file: string): Promise<State> {
  const store = await openResultStore(file, { readOnly: true });
  try {
    const [row] = await store.query<State>(`SELECT
      (SELECT count(*) FROM retrievals)::INTEGER AS retrievals,
      (SELECT count(*) FROM retrievals WHERE error IS NOT NULL)::INTEGER AS "retrievalErrors",
      (SELECT count(*) FROM answers)::INTEGER AS answers,
      (SELECT count(*) FROM answers WHERE error IS NOT NULL)::INTEGER AS "answerErrors",
      (SELECT count(*) - count(DISTINCT (question_id, method, level, metric, k)) FROM scores)::INTEGER AS "scoreDuplicates",
      (SELECT count(*) FROM llm_calls WHERE error IS NOT NULL)::INTEGER AS "failedCalls"`);
    return row!;
  } finally {
    await store.close();
  }
}

describe('error rows on resume', () => {
  const out = join(dir, 'retry.duckdb');
  const run = (retryErrors?: boolean) =>
    runExperiment(parseExperiment(yaml(), 'retry.yaml'), {
      out,
      progress: false,
      log: () => {},
      ...(retryErrors === undefined ? {} : { retryErrors }),
    });

  it('are kept with retryErrors: false and replaced by results on a plain resume', async () => {
    const first = await run();
    expect(first.written).toBe(QUESTIONS);
    const failed = await state(out);
    // embed: every retrieval failed (no answer row); bm25: retrieval fine, every reader call failed.
    expect(failed).toMatchObject({
      retrievals: QUESTIONS * METHODS,
      retrievalErrors: QUESTIONS,
      answers: QUESTIONS,
      answerErrors: QUESTIONS,
    });
    expect(failed.failedCalls).toBe(QUESTIONS);

    failing = false;
    const kept = await run(false);
    expect(kept).toMatchObject({ written: 0, skipped: QUESTIONS });
    expect(await state(out)).toEqual(failed);

    const requestsBefore = server.requests.length;
    const retried = await run();
    expect(retried).toMatchObject({ written: QUESTIONS, skipped: 0, errors: 0 });
    expect(server.requests.length).toBeGreaterThan(requestsBefore);
    expect(await state(out)).toEqual({
      retrievals: QUESTIONS * METHODS,
      retrievalErrors: 0,
      answers: QUESTIONS * METHODS,
      answerErrors: 0,
      scoreDuplicates: 0,
      failedCalls: QUESTIONS, // the failed attempt's calls were made: they stay in the accounting
    });

    // Nothing is left to retry: a further resume writes nothing and sends nothing.
    const requestsDone = server.requests.length;
    expect(await run()).toMatchObject({ written: 0, skipped: QUESTIONS });
    expect(server.requests.length).toBe(requestsDone);
  });
});
