// `adaptmr rejudge` on a file written before judge panels (answers carrying only the judge_verdicts JSON): the old
// judge's verdicts become rows, the new judge is asked over real HTTP with the run's endpoint, kappa between them is
// stored; judge specs parse `<id>:<model>[:<prompt>]` with colons in model names; bad specs fail with one line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
} from '../../llm/testing/fake-openai-server.ts';
import { fakeBatch } from '../../store/testing/fake-batch.ts';
import { openResultStore } from '../../store/index.ts';
import { parseJudgeSpec, rejudgeFile } from './rejudge.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-rejudge-'));
let server: FakeOpenAiServer;
const savedCache = process.env.ADAPTMR_CACHE_DIR;

beforeAll(async () => {
  process.env.ADAPTMR_CACHE_DIR = join(dir, 'cache');
  // The new judge says yes to questions 0 and 1 only (LongMemEval's yes/no prompt).
  server = await startFakeOpenAiServer({
    chat: (b: ChatRequestBody) => (/Question: question [01]\?/u.test(b.messages[0]?.content ?? '') ? 'yes' : 'no'),
  });
});
afterAll(async () => {
  await server.close();
  if (savedCache === undefined) delete process.env.ADAPTMR_CACHE_DIR;
  else process.env.ADAPTMR_CACHE_DIR = savedCache;
  rmSync(dir, { recursive: true, force: true });
});

describe('judge specs', () => {
  it('parse id, model (colons allowed) and an optional prompt', () => {
    expect(parseJudgeSpec('a:gpt-4o-mini')).toEqual({ id: 'a', model: 'gpt-4o-mini' });
    expect(parseJudgeSpec('b:llama3:8b')).toEqual({ id: 'b', model: 'llama3:8b' });
    expect(parseJudgeSpec('c:llama3:8b:strict')).toEqual({ id: 'c', model: 'llama3:8b', prompt: 'strict' });
    expect(parseJudgeSpec('d:gpt-4o:longmemeval')).toEqual({ id: 'd', model: 'gpt-4o', prompt: 'longmemeval' });
    expect(() => parseJudgeSpec('gpt-4o')).toThrow(/--judge: "gpt-4o" is not <id>:<model>\[:<prompt>\]/u);
    expect(() => parseJudgeSpec('all:gpt-4o')).toThrow(/judge id "all": "all" is reserved/u);
    expect(() => parseJudgeSpec('a b:gpt-4o')).toThrow(/judge id "a b"/u);
  });
});

describe('rejudge on a file written before judge panels', () => {
  it("turns the old verdicts into rows and adds the new judge's, with kappa", async () => {
    const file = join(dir, 'old.duckdb');
    const store = await openResultStore(file);
    const config = {
      name: 'old',
      seed: 1,
      methods: [{ id: 'bm25', method: 'bm25' }],
      llm: { roles: { judge: { baseURL: server.baseURL, model: 'old-judge' } } },
      qa: {},
    };
    await store.upsertRun({
      runId: 'r1',
      name: 'old',
      configJson: JSON.stringify(config),
      configHash: 'h',
      gitCommit: null,
      gitDirty: null,
      packageVersions: {},
      datasetHashes: {},
      seed: 1,
      startedAt: 'x',
      status: 'done',
    });
    // Old judge: yes on questions 0 and 2. New judge: yes on 0 and 1. Over q0–q3: both 1, old only 1, new only 1, neither 1.
    for (let i = 0; i < 4; i++) {
      const b = fakeBatch('r1', i, ['bm25']);
      const yes = i === 0 || i === 2;
      await store.writeQuestion({
        ...b,
        answers: [
          {
            dataset: 'fake',
            questionId: `q${i}`,
            method: 'bm25',
            answer: `answer ${i}`,
            judgeVerdicts: [{ correct: [yes], raw: [yes ? 'yes' : 'no'] }],
            contextTokens: 1,
            error: null,
          },
        ],
        scores: [
          ...b.scores,
          {
            dataset: 'fake',
            questionId: `q${i}`,
            method: 'bm25',
            granularity: 'turn',
            level: 'qa',
            metric: 'accuracy',
            k: null,
            value: yes ? 1 : 0,
            counted: true,
            excludedWhy: null,
          },
        ],
      });
    }
    await store.close();
    const s = await rejudgeFile(file, { judges: ['new:new-judge'], log: () => {} });
    expect(s).toMatchObject({ runs: 1, backfilled: 4, judged: 4, failed: 0 });
    expect(server.requests.every((r) => (r.body as ChatRequestBody).model === 'new-judge')).toBe(true);
    const r = await openResultStore(file, { readOnly: true });
    try {
      expect(
        await r.query(`select judge, model, count(*)::INT n from answer_verdicts group by all order by all`),
      ).toEqual([
        { judge: 'judge', model: 'old-judge', n: 4 },
        { judge: 'new', model: 'new-judge', n: 4 },
      ]);
      // p_o = 2/4; both judges say yes on half → p_e = 0.5 → κ = 0
      const [k] = await r.query<{ agreement: number; kappa: number }>(
        `select agreement, kappa from judge_agreement where adapt_type = 'all'`,
      );
      expect(k).toEqual({ agreement: 0.5, kappa: 0 });
    } finally {
      await r.close();
    }
    await expect(rejudgeFile(join(dir, 'none.duckdb'), { judges: ['x:y'], log: () => {} })).rejects.toThrow(
      /none\.duckdb: results file not found/u,
    );
    const empty = join(dir, 'empty.duckdb');
    await (await openResultStore(empty)).close();
    await expect(rejudgeFile(empty, { judges: ['x:y'], log: () => {} })).rejects.toThrow(/holds no answers to judge/u);
  });
});
