// `explain --results`: each method's stored answer and verdict next to its context, gold apart; errors named;
// `--methods` and `--no-context` keep a case study small.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResultStore, type RetrievalRow } from '../../store/index.ts';
import { formatStoredCase, loadStoredCase } from './stored.ts';

const dir = mkdtempSync(join(tmpdir(), 'adaptmr-stored-'));
const file = join(dir, 'r.duckdb');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const retrieval = (method: string, context: string | null, error: string | null = null): RetrievalRow => ({
  dataset: 'd',
  questionId: 'q1',
  method,
  granularity: 'session',
  k: 2,
  unitIds: error ? [] : ['s1', 's2'],
  unitSessionIds: [],
  scores: [],
  noMemory: false,
  context,
  latencyMs: 1,
  predictedType: 'temporal',
  typeProbs: null,
  route: 'temporal',
  notes: null,
  error,
});

beforeAll(async () => {
  const store = await openResultStore(file);
  await store.writeQuestion({
    runId: 'r1',
    question: {
      dataset: 'd',
      questionId: 'q1',
      text: '我什么时候去的巴黎？',
      askedAt: '2023-05-01',
      nativeType: 'temporal-reasoning',
      adaptType: 'temporal',
      isAbstention: false,
      evidenceSessionIds: ['s2'],
      evidenceTurnIds: [],
      answer: '三月',
    },
    retrievals: [
      retrieval('a', 'Session s2: 我三月去了巴黎'),
      retrieval('b', 'Session s1: 天气很好'),
      retrieval('c', null, 'boom'),
    ],
    scores: [
      {
        dataset: 'd',
        questionId: 'q1',
        method: 'a',
        granularity: 'session',
        level: 'qa',
        metric: 'accuracy',
        k: null,
        value: 1,
        counted: true,
        excludedWhy: null,
      },
    ],
    answers: [
      {
        dataset: 'd',
        questionId: 'q1',
        method: 'a',
        answer: '三月',
        judgeVerdicts: [{ model: 'j', correct: [true] }],
        contextTokens: 10,
        error: null,
      },
      {
        dataset: 'd',
        questionId: 'q1',
        method: 'b',
        answer: '不知道',
        judgeVerdicts: [{ model: 'j', correct: [false] }],
        contextTokens: 8,
        error: null,
      },
    ],
  });
  await store.close();
});

describe('explain --results', () => {
  it("shows each method's answer and verdict beside its context, and the gold last", async () => {
    const c = await loadStoredCase(file, 'q1');
    expect(c.methods.map((m) => [m.method, m.answer, m.verdicts])).toEqual([
      ['a', '三月', ['correct']],
      ['b', '不知道', ['wrong']],
      ['c', null, null],
    ]);
    const text = formatStoredCase(c);
    const a = text.indexOf('METHOD a');
    const b = text.indexOf('METHOD b');
    expect(text.slice(a, b)).toMatch(
      /answer: 三月\nverdict: correct\n.*accuracy 1\.00\ncontext \(as stored\):\n {2}│ Session s2: 我三月去了巴黎/su,
    );
    expect(text.slice(b)).toMatch(/answer: 不知道\nverdict: wrong/);
    expect(text).toMatch(/METHOD c[\s\S]*error: boom/);
    expect(text.indexOf('GOLD')).toBeGreaterThan(text.indexOf('METHOD c'));
  });
  it('keeps only the methods asked for (--methods) and leaves contexts out (--no-context), saying how long they were', async () => {
    const c = await loadStoredCase(file, 'q1', undefined, ['b', 'a']);
    expect(c.methods.map((m) => m.method)).toEqual(['a', 'b']);
    const text = formatStoredCase(c, { context: false });
    expect(text).not.toContain('我三月去了巴黎');
    expect(text).toContain(`context: not shown (--no-context; ${'Session s2: 我三月去了巴黎'.length} characters)`);
    expect(text).not.toContain('METHOD c');
    await expect(loadStoredCase(file, 'q1', undefined, ['a', 'zzz'])).rejects.toThrow(
      /--methods: zzz not stored for question "q1" \(its methods: a, b, c\)/u,
    );
  });
  it('names a question the file does not have', async () => {
    await expect(loadStoredCase(file, 'nope')).rejects.toThrow(/question "nope" is not in the results file/);
  });
});
