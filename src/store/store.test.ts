// Tests of the results store against a real DuckDB file in a temp dir: round trip of every column, gold written
// once, scores_by_type golden values (hand-computed), rollback on error, concurrent writes, versioning, read-only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.ts';
import { FAKE_SCORES_PER_METHOD, fakeBatch } from './testing/fake-batch.ts';
import { openResultStore } from './open-store.ts';
import type { QuestionBatch, ResultStore, RunRecord, ScoreRow } from './types.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'adaptmr-store-'));
  file = join(dir, 'results.duckdb');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const RUN: RunRecord = {
  runId: 'r1',
  name: 'exp',
  configJson: '{"a":1}',
  configHash: 'abc',
  gitCommit: 'deadbeef',
  gitDirty: false,
  packageVersions: { duckdb: '1.5' },
  datasetHashes: { lme: 'ff' },
  seed: 7,
  startedAt: '2026-01-01T00:00:00Z',
  status: 'running',
};

async function withStore<T>(fn: (s: ResultStore) => Promise<T>, readOnly = false): Promise<T> {
  const store = await openResultStore(file, { readOnly });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('runs', () => {
  it('inserts a run then updates only its end and status', async () => {
    await withStore(async (s) => {
      await s.upsertRun(RUN);
      await s.upsertRun({ ...RUN, name: 'ignored', endedAt: '2026-01-02T00:00:00Z', status: 'done' });
      expect(await s.query('SELECT * FROM runs')).toEqual([
        {
          run_id: 'r1',
          name: 'exp',
          config_json: '{"a":1}',
          config_hash: 'abc',
          git_commit: 'deadbeef',
          git_dirty: false,
          package_versions: '{"duckdb":"1.5"}',
          dataset_hashes: '{"lme":"ff"}',
          seed: 7,
          started_at: '2026-01-01T00:00:00Z',
          ended_at: '2026-01-02T00:00:00Z',
          status: 'done',
        },
      ]);
    });
  });
});

describe('writeQuestion', () => {
  it('round-trips every column of every table', async () => {
    const batch: QuestionBatch = {
      ...fakeBatch('r1', 1, ['bm25']),
      answers: [
        {
          dataset: 'fake',
          questionId: 'q1',
          method: 'bm25',
          answer: 'Paris',
          judgeVerdicts: [{ verdict: 'yes' }],
          contextTokens: 812,
          error: null,
          answerTokens: 1,
        },
      ],
      verdicts: [
        {
          dataset: 'fake',
          questionId: 'q1',
          method: 'bm25',
          probe: '',
          judge: 'j1',
          gold: 'original',
          model: 'gpt-j',
          prompt: 'locomo',
          correct: [true, false],
          raw: ['{"label":"CORRECT"}', 'WRONG'],
        },
      ],
      goldVersions: [{ dataset: 'fake', questionId: 'q1', version: 'errata', answer: 'Lyon', note: 'HALLUCINATION' }],
      llmCalls: [
        {
          dataset: 'fake',
          questionId: 'q1',
          method: 'bm25',
          stage: 'reader',
          model: 'gpt-x',
          promptTokens: 900,
          completionTokens: 12,
          latencyMs: 250.5,
          cached: true,
          costUsd: 0.0012,
        },
      ],
    };
    await withStore(async (s) => {
      await s.writeQuestion(batch);
      expect(await s.query('SELECT * FROM questions')).toEqual([
        {
          run_id: 'r1',
          dataset: 'fake',
          question_id: 'q1',
          text: 'question 1?',
          asked_at: '2023-05-20T02:21:00Z',
          native_type: 'temporal-reasoning',
          adapt_type: 'temporal',
          is_abstention: false,
          evidence_session_ids: ['s1'],
          evidence_turn_ids: ['s1#1'],
          answer: 'answer 1',
          superseded_session_ids: [],
          superseded_turn_ids: [],
          haystack_sessions: null,
          haystack_turns: null,
          judge_evidence: null,
        },
      ]);
      const [r] = await s.query<Record<string, unknown>>('SELECT * FROM retrievals');
      expect(r).toMatchObject({
        method: 'bm25',
        granularity: 'turn',
        no_memory: false,
        context: 'context of q1',
        latency_ms: 3.5,
        predicted_type: 'factual',
        type_probs: '{"factual":0.7,"temporal":0.3}',
        route: 'factual',
        notes: '{"i":1}',
        error: null,
      });
      expect(r?.unit_ids).toEqual(batch.retrievals[0]?.unitIds);
      expect(r?.scores).toEqual(batch.retrievals[0]?.scores);
      expect(await s.query("SELECT * FROM scores WHERE metric = 'f1'")).toEqual([
        {
          run_id: 'r1',
          dataset: 'fake',
          question_id: 'q1',
          method: 'bm25',
          granularity: 'turn',
          level: 'qa',
          metric: 'f1',
          k: null,
          value: 0.5,
          counted: true,
          excluded_why: null,
        },
      ]);
      expect(await s.query('SELECT * FROM answers')).toEqual([
        {
          run_id: 'r1',
          dataset: 'fake',
          question_id: 'q1',
          method: 'bm25',
          answer: 'Paris',
          judge_verdicts: '[{"verdict":"yes"}]',
          context_tokens: 812,
          error: null,
          answer_tokens: 1,
        },
      ]);
      expect(await s.query('SELECT * FROM answer_verdicts')).toEqual([
        {
          run_id: 'r1',
          dataset: 'fake',
          question_id: 'q1',
          method: 'bm25',
          probe: '',
          judge: 'j1',
          gold: 'original',
          model: 'gpt-j',
          prompt: 'locomo',
          correct: [true, false],
          raw: ['{"label":"CORRECT"}', 'WRONG'],
        },
      ]);
      expect(await s.query('SELECT * FROM gold_versions')).toEqual([
        { run_id: 'r1', dataset: 'fake', question_id: 'q1', version: 'errata', answer: 'Lyon', note: 'HALLUCINATION' },
      ]);
      expect(await s.query('SELECT * FROM llm_calls')).toEqual([
        {
          run_id: 'r1',
          dataset: 'fake',
          question_id: 'q1',
          method: 'bm25',
          stage: 'reader',
          model: 'gpt-x',
          prompt_tokens: 900,
          completion_tokens: 12,
          latency_ms: 250.5,
          cached: true,
          cost_usd: 0.0012,
          error: null,
          batch: false,
          cached_tokens: 0,
        },
      ]);
    });
  });

  it('writes the gold once when a question is written again for another method', async () => {
    await withStore(async (s) => {
      await s.writeQuestion(fakeBatch('r1', 1, ['bm25']));
      await s.writeQuestion(fakeBatch('r1', 1, ['dense']));
      expect(await s.query('SELECT count(*) AS n FROM questions')).toEqual([{ n: 1 }]);
      expect([...(await s.completedKeys('r1'))].sort()).toEqual(['fake\tq1\tbm25', 'fake\tq1\tdense']);
    });
  });

  it('rolls back the whole question when one row fails, and the connection stays usable', async () => {
    await withStore(async (s) => {
      const bad = fakeBatch('r1', 2, ['bm25', 'bm25']); // duplicate retrieval key → primary key violation
      await expect(s.writeQuestion(bad)).rejects.toThrow(/question fake\/q2.*[Dd]uplicate key/);
      expect(await s.query('SELECT count(*) AS n FROM questions')).toEqual([{ n: 0 }]);
      expect(await s.query('SELECT count(*) AS n FROM scores')).toEqual([{ n: 0 }]);
      await s.writeQuestion(fakeBatch('r1', 2, ['bm25']));
      expect(await s.query('SELECT count(*) AS n FROM scores')).toEqual([{ n: FAKE_SCORES_PER_METHOD }]);
    });
  });

  it('refuses NaN scores and rows of another question, naming the question', async () => {
    await withStore(async (s) => {
      const nan = fakeBatch('r1', 3, ['bm25']);
      (nan.scores[0] as ScoreRow).value = Number.NaN;
      expect(() => s.writeQuestion(nan)).toThrow(InputError);
      expect(() => s.writeQuestion(nan)).toThrow(/question fake\/q3: score bm25 session recall_any k=1 is NaN/);
      const stray = fakeBatch('r1', 4, ['bm25']);
      stray.scores.push({ ...(stray.scores[0] as ScoreRow), questionId: 'q5' });
      expect(() => s.writeQuestion(stray)).toThrow(/score row belongs to fake\/q5/);
    });
  });

  it('serialises concurrent writers without losing or mixing questions', async () => {
    await withStore(async (s) => {
      await Promise.all(Array.from({ length: 24 }, (_, i) => s.writeQuestion(fakeBatch('r1', i, ['a', 'b']))));
      expect(await s.query('SELECT count(*) AS n FROM questions')).toEqual([{ n: 24 }]);
      expect(await s.query('SELECT count(*) AS n FROM scores')).toEqual([{ n: 24 * 2 * FAKE_SCORES_PER_METHOD }]);
      expect((await s.completedKeys('r1')).size).toBe(48);
    });
  });
});

describe('group commit', () => {
  it('writes concurrent questions together, and a bad one fails alone while the rest of its group commits', async () => {
    await withStore(async (s) => {
      const bad = fakeBatch('r1', 7, ['bm25', 'bm25']); // duplicate retrieval key → fails inside the transaction
      const results = await Promise.allSettled([
        s.writeQuestion(fakeBatch('r1', 5, ['bm25'])),
        s.writeQuestion(fakeBatch('r1', 6, ['bm25'])),
        s.writeQuestion(bad),
        s.writeQuestion(fakeBatch('r1', 8, ['bm25'])),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/question fake\/q7:.*[Dd]uplicate key/);
      expect(await s.query('SELECT question_id FROM questions ORDER BY 1')).toEqual([
        { question_id: 'q5' },
        { question_id: 'q6' },
        { question_id: 'q8' },
      ]);
      expect(await s.query('SELECT count(*) AS n FROM scores')).toEqual([{ n: 3 * FAKE_SCORES_PER_METHOD }]);
    });
  });
});

function score(questionId: string, value: number, extra: Partial<ScoreRow> = {}): ScoreRow {
  return {
    dataset: 'd',
    questionId,
    method: 'm',
    granularity: 'session',
    level: 'session',
    metric: 'recall_any',
    k: 5,
    value,
    counted: true,
    excludedWhy: null,
    ...extra,
  };
}

function goldBatch(questionId: string, adaptType: string, nativeType: string, scores: ScoreRow[]): QuestionBatch {
  return {
    runId: 'r1',
    retrievals: [],
    scores,
    question: {
      dataset: 'd',
      questionId,
      text: '?',
      askedAt: 't',
      nativeType,
      adaptType,
      isAbstention: adaptType === 'abstention',
      evidenceSessionIds: [],
      evidenceTurnIds: [],
      answer: '',
    },
  };
}

describe('scores_by_type', () => {
  it('averages counted rows per native type, per AdaptMR type and overall, keeping NULL k', async () => {
    await withStore(async (s) => {
      const f1 = { level: 'qa', metric: 'f1', k: null } as const;
      await s.writeQuestion(goldBatch('q1', 'temporal', '2', [score('q1', 1), score('q1', 0.4, f1)]));
      await s.writeQuestion(goldBatch('q2', 'temporal', '2', [score('q2', 0), score('q2', 0.6, f1)]));
      await s.writeQuestion(goldBatch('q3', 'factual', '4', [score('q3', 1)]));
      await s.writeQuestion(goldBatch('q4', 'factual', '3', [score('q4', 0.5)]));
      await s.writeQuestion(
        goldBatch('q5', 'abstention', '5', [score('q5', 1, { counted: false, excludedWhy: 'abs' })]),
      );
      const rows = await s.query<{ adapt_type: string; native_type: string; n: number; mean: number }>(
        "SELECT adapt_type, native_type, n, round(mean, 6) AS mean FROM scores_by_type WHERE metric = 'recall_any' AND k = 5 ORDER BY ALL",
      );
      expect(rows).toEqual([
        { adapt_type: 'all', native_type: 'all', n: 4, mean: 0.625 },
        { adapt_type: 'factual', native_type: '3', n: 1, mean: 0.5 },
        { adapt_type: 'factual', native_type: '4', n: 1, mean: 1 },
        { adapt_type: 'factual', native_type: 'all', n: 2, mean: 0.75 },
        { adapt_type: 'temporal', native_type: '2', n: 2, mean: 0.5 },
        { adapt_type: 'temporal', native_type: 'all', n: 2, mean: 0.5 },
      ]);
      const qa = await s.query(
        "SELECT k, n, round(mean, 6) AS mean FROM scores_by_type WHERE metric = 'f1' AND adapt_type = 'all'",
      );
      expect(qa).toEqual([{ k: null, n: 2, mean: 0.5 }]);
      const cols = await s.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'scores_by_type' ORDER BY ordinal_position",
      );
      expect(cols.map((c) => c.column_name)).toEqual([
        'run_id',
        'dataset',
        'method',
        'granularity',
        'level',
        'metric',
        'k',
        'adapt_type',
        'native_type',
        'n',
        'mean',
        'ci_low',
        'ci_high',
        'ci_method',
        'bootstrap',
      ]);
    });
  });
});

describe('opening', () => {
  it('refuses a file of another schema version, naming file and versions', async () => {
    await withStore(async (s) => {
      await s.upsertRun(RUN);
    });
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    c.closeSync();
    db.closeSync();
    await expect(openResultStore(file)).rejects.toThrow(
      /results\.duckdb: results file has schema version 99.*reads version 6/,
    );
  });

  it('refuses a DuckDB file that is not a results file', async () => {
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run('CREATE TABLE other (x INTEGER)');
    c.closeSync();
    db.closeSync();
    await expect(openResultStore(file)).rejects.toThrow(/not an AdaptMR results file/);
  });

  it('opens read-only: reads work, writes fail, a missing file fails', async () => {
    await withStore(async (s) => {
      await s.upsertRun(RUN);
    });
    await withStore(async (s) => {
      expect(await s.query('SELECT run_id FROM runs')).toEqual([{ run_id: 'r1' }]);
      expect(() => s.writeQuestion(fakeBatch('r1', 1, ['m']))).toThrow(/read-only/);
    }, true);
    await expect(openResultStore(join(dir, 'missing.duckdb'), { readOnly: true })).rejects.toThrow(/not found/);
  });
});
