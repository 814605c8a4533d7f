// Judges and reader against the loopback OpenAI-compatible server: official prompts selected by type, strict
// verdict parsing, repeated judging as distinct cached calls, reader rendering with dates and the no-memory line.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../core/interfaces.ts';
import type { Retrieval } from '../../core/types.ts';
import { createLlmProvider } from '../../llm/provider.ts';
import {
  type ChatRequestBody,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../../llm/testing/fake-openai-server.ts';
import { countTokens } from '../../llm/tokens.ts';
import { judgeLocomo, locomoJudgePrompt } from './judge-locomo.ts';
import { judgeLongMemEval, longMemEvalJudgePrompt } from './judge-longmemeval.ts';
import * as lme from './prompts/longmemeval-judge.ts';
import { LME_READER_CHAIN_OF_NOTE, LME_READER_DIRECT } from './prompts/longmemeval-reader.ts';
import { MEM0_JUDGE_PROMPT } from './prompts/mem0-judge.ts';
import { formatDate, readAnswer, renderContext } from './reader.ts';
import { parseLocomoLabel, parseYesNoVerdict } from './verdict.ts';
import type { AnswerToScore, ScoreOptions } from '../../core/benchmark.ts';
import type { LlmClient } from '../../core/llm.ts';
import { loadBenchmark } from '../../run/benchmark-registry.ts';

/** Scores an answer through its benchmark's protocol, found in the registry as the runner finds it. */
async function registryScorer() {
  return async (input: AnswerToScore, judge: LlmClient | undefined, options: ScoreOptions) =>
    (await loadBenchmark(input.protocol)).qa.score(input, judge, options);
}

let server: FakeOpenAiServer;
let dir: string;
let replies: string[] = [];
const bodies: ChatRequestBody[] = [];

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    chat: (body) => {
      bodies.push(body);
      return replies.shift() ?? 'yes';
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-qa-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
  bodies.length = 0;
  replies = [];
});

function provider(mode: 'off' | 'read-write' = 'off') {
  return createLlmProvider(
    {
      cache: { mode, dir },
      retryBaseMs: 1,
      roles: {
        judge: { baseURL: server.baseURL, model: 'judge-m', structuredOutput: 'json-object' },
        reader: { baseURL: server.baseURL, model: 'reader-m' },
      },
    },
    {},
  );
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

describe('official prompts', () => {
  it('are pinned (any edit changes these hashes)', () => {
    expect({
      def: sha(lme.LME_JUDGE_DEFAULT),
      tmp: sha(lme.LME_JUDGE_TEMPORAL),
      ku: sha(lme.LME_JUDGE_KNOWLEDGE_UPDATE),
      pref: sha(lme.LME_JUDGE_PREFERENCE),
      abs: sha(lme.LME_JUDGE_ABSTENTION),
      direct: sha(LME_READER_DIRECT),
      con: sha(LME_READER_CHAIN_OF_NOTE),
      mem0: sha(MEM0_JUDGE_PROMPT),
    }).toMatchInlineSnapshot(`
      {
        "abs": "5c0b365a1e1d06db",
        "con": "9e2b3110622929ab",
        "def": "fba020ba3d57982e",
        "direct": "e427ff913456e51a",
        "ku": "183a9b3a6197ec62",
        "mem0": "62395dd312a631df",
        "pref": "741ee3bcbea7ff5e",
        "tmp": "8d33a5fdd83afeeb",
      }
    `);
  });

  it('picks the prompt by type, and the abstention prompt for _abs ids', () => {
    const base = { question: 'Q?', answer: 'A', hypothesis: 'H' };
    expect(longMemEvalJudgePrompt({ ...base, questionId: 'q1', nativeType: 'multi-session' })).toContain(
      'Correct Answer: A',
    );
    expect(longMemEvalJudgePrompt({ ...base, questionId: 'q1', nativeType: 'temporal-reasoning' })).toContain(
      'off-by-one',
    );
    expect(longMemEvalJudgePrompt({ ...base, questionId: 'q1', nativeType: 'knowledge-update' })).toContain(
      'updated answer',
    );
    expect(longMemEvalJudgePrompt({ ...base, questionId: 'q1', nativeType: 'single-session-preference' })).toContain(
      'Rubric: A',
    );
    const abs = longMemEvalJudgePrompt({ ...base, questionId: 'q1_abs', nativeType: 'temporal-reasoning' });
    expect(abs).toContain('unanswerable question');
    expect(abs).toContain('Explanation: A\n\nModel Response: H');
    expect(() => longMemEvalJudgePrompt({ ...base, questionId: 'q1', nativeType: 'bogus' })).toThrow(/bogus/);
  });

  it('fills values verbatim, even when they contain braces', () => {
    const p = locomoJudgePrompt({ question: 'What {x}?', answer: '{gold_answer}', hypothesis: 'a {} b' });
    expect(p).toContain('Question: What {x}?\nGold answer: {gold_answer}\nGenerated answer: a {} b\n');
    expect(p.startsWith('\nYour task is to label an answer')).toBe(true);
  });
});

describe('strict verdicts', () => {
  it('LongMemEval: only a first word "yes" counts', () => {
    expect(parseYesNoVerdict('yes')).toBe(true);
    expect(parseYesNoVerdict('Yes.')).toBe(true);
    expect(parseYesNoVerdict('**Yes**')).toBe(true);
    expect(parseYesNoVerdict('yes, but only partly')).toBe(true);
    expect(parseYesNoVerdict('no')).toBe(false);
    expect(parseYesNoVerdict('No.')).toBe(false);
    expect(parseYesNoVerdict('incorrect')).toBe(false);
    expect(parseYesNoVerdict('')).toBe(false);
    expect(parseYesNoVerdict('yesterday')).toBe(false);
    expect(parseYesNoVerdict('The answer is yes')).toBe(false);
    expect(parseYesNoVerdict('no, not yes')).toBe(false);
  });

  it('LoCoMo: the JSON label must be exactly CORRECT', () => {
    expect(parseLocomoLabel('{"label": "CORRECT"}')).toBe('CORRECT');
    expect(parseLocomoLabel('The answer matches.\n```json\n{"label": "CORRECT"}\n```')).toBe('CORRECT');
    expect(parseLocomoLabel('{"label": "WRONG"}')).toBe('WRONG');
    expect(parseLocomoLabel('CORRECT')).toBeUndefined();
    expect(parseLocomoLabel('{"verdict": "CORRECT"}')).toBeUndefined();
  });
});

describe('judges over HTTP', () => {
  it('LongMemEval judge: temperature 0, max_tokens 10, n repeats as distinct calls', async () => {
    replies = ['Yes.', 'no', 'yes'];
    const calls: CallRecord[] = [];
    const r = await judgeLongMemEval(
      { questionId: 'gpt4_1', nativeType: 'multi-session', question: 'How many?', answer: '3', hypothesis: 'Three.' },
      provider('read-write').forRole('judge'),
      { repeats: 3, calls },
    );
    // The repeats are asked together (concurrent.ts), so the loopback server's replies arrive in any order: each
    // verdict must match its own reply.
    expect([...r.raw].sort()).toEqual(['Yes.', 'no', 'yes']);
    expect(r.correct).toEqual(r.raw.map((x) => x !== 'no'));
    expect(bodies).toHaveLength(3);
    expect(bodies[0]).toMatchObject({ temperature: 0, max_tokens: 10 });
    expect(bodies[0]?.messages).toEqual([
      {
        role: 'user',
        content: longMemEvalJudgePrompt({
          questionId: 'gpt4_1',
          nativeType: 'multi-session',
          question: 'How many?',
          answer: '3',
          hypothesis: 'Three.',
        }),
      },
    ]);
    expect(calls.map((c) => c.stage)).toEqual(['judge', 'judge', 'judge']);
    // a rerun is served from the cache, run by run
    const again = await judgeLongMemEval(
      { questionId: 'gpt4_1', nativeType: 'multi-session', question: 'How many?', answer: '3', hypothesis: 'Three.' },
      provider('read-write').forRole('judge'),
      { repeats: 3, calls: [] },
    );
    expect(again).toEqual(r);
    expect(server.count('/v1/chat/completions')).toBe(3);
  });

  it('LoCoMo judge: Mem0 prompt, json_object, strict label', async () => {
    replies = ['{"label": "CORRECT"}', '```json\n{"label": "correct"}\n```'];
    const r = await judgeLocomo(
      { question: 'Where?', answer: 'Paris', hypothesis: 'In Paris' },
      provider().forRole('judge'),
      { repeats: 2, calls: [] },
    );
    expect(r.correct).toEqual([true, false]);
    expect(bodies[0]).toMatchObject({ temperature: 0, response_format: { type: 'json_object' } });
  });
});

describe('reader', () => {
  const unit = (id: string, at: string, text: string, speaker?: string) => ({
    unit: { id, sessionId: id, turnIds: [id], role: 'user' as const, text, at, ...(speaker ? { speaker } : {}) },
    score: 1,
  });
  const retrieval: Retrieval = {
    units: [
      unit('s2', '2023-05-30T23:40:00Z', 'I moved to Berlin.'),
      unit('s1', '2023-01-02T08:05:00Z', 'I live in Rome.', 'Ann'),
    ],
    noMemory: false,
    context: '',
  };

  it('formats dates as LongMemEval does', () => {
    expect(formatDate('2023-05-30T23:40:00Z')).toBe('2023/05/30 (Tue) 23:40');
  });

  it('renders units in the method order with dates, or chronologically', () => {
    expect(renderContext(retrieval, { withDates: true })).toBe(
      '\n### Session 1:\nSession Date: 2023/05/30 (Tue) 23:40\nSession Content:\nI moved to Berlin.\n' +
        '\n### Session 2:\nSession Date: 2023/01/02 (Mon) 08:05\nSession Content:\nAnn: I live in Rome.\n',
    );
    expect(renderContext(retrieval, { withDates: true, order: 'chronological' }).indexOf('Rome')).toBeLessThan(
      renderContext(retrieval, { withDates: true, order: 'chronological' }).indexOf('Berlin'),
    );
    expect(renderContext(retrieval, { withDates: false })).not.toContain('Session Date');
  });

  it('renders the no-memory signal', () => {
    expect(renderContext({ units: [], noMemory: true, context: '' }, { withDates: true })).toBe(
      '[NO_RELEVANT_MEMORY] No relevant memory was found for this question.\n',
    );
  });

  it('asks the official prompt with the question date and counts context tokens', async () => {
    replies = ['  Berlin.  '];
    const calls: CallRecord[] = [];
    const query = { id: 'q', text: 'Where do I live?', askedAt: '2023-06-01T10:00:00Z' };
    const r = await readAnswer(query, retrieval, provider().forRole('reader'), { chainOfNote: false, calls });
    expect(r.answer).toBe('Berlin.');
    const context = renderContext(retrieval, { withDates: true });
    expect(r.contextTokens).toBe(countTokens(context));
    expect(bodies[0]?.messages[0]?.content).toBe(
      `I will give you several history chats between you and a user. Please answer the question based on the relevant chat history.\n\n\nHistory Chats:\n\n${context}\n\nCurrent Date: 2023/06/01 (Thu) 10:00\nQuestion: Where do I live?\nAnswer:`,
    );
    expect(bodies[0]).toMatchObject({ temperature: 0, max_tokens: 500 });
    expect(calls[0]?.stage).toBe('reader');

    await readAnswer(query, retrieval, provider().forRole('reader'), { chainOfNote: true, calls });
    expect(bodies[1]?.messages[0]?.content).toContain('Answer (step by step):');
    expect(bodies[1]).toMatchObject({ max_tokens: 800 });
  });

  it("uses the method's context by default, with the no-memory line first when the method abstains", async () => {
    const query = { id: 'q', text: 'Where?', askedAt: '2023-06-01T10:00:00Z' };
    const own: Retrieval = { ...retrieval, context: 'CUSTOM CONTEXT', noMemory: true };
    const r = await readAnswer(query, own, provider().forRole('reader'), { chainOfNote: false, calls: [] });
    expect(bodies[0]?.messages[0]?.content).toContain(
      'History Chats:\n\n[NO_RELEVANT_MEMORY] No relevant memory was found for this question.\nCUSTOM CONTEXT\n\nCurrent Date:',
    );
    expect(r.contextTokens).toBe(
      countTokens('[NO_RELEVANT_MEMORY] No relevant memory was found for this question.\nCUSTOM CONTEXT'),
    );
    await readAnswer(query, own, provider().forRole('reader'), { chainOfNote: false, calls: [], context: 'official' });
    expect(bodies[1]?.messages[0]?.content).toContain('### Session 1:\nSession Date: 2023/05/30 (Tue) 23:40');
  });
  it('cuts the context to the experiment budget (qa.reader.contextTokens) and records the length before', async () => {
    const query = { id: 'q', text: 'Where?', askedAt: '2023-06-01T10:00:00Z' };
    const own: Retrieval = { ...retrieval, context: 'Ann lives in Rome. '.repeat(50) };
    const r = await readAnswer(query, own, provider().forRole('reader'), {
      chainOfNote: false,
      calls: [],
      contextTokens: 20,
    });
    expect(r.contextTokens).toBeLessThanOrEqual(20);
    expect(r.contextCutFrom).toBe(countTokens(own.context));
    const sent = bodies[0]?.messages[0]?.content ?? '';
    expect(sent.split('Ann lives in Rome').length - 1).toBeLessThan(10);
    const fits = await readAnswer(query, retrieval, provider().forRole('reader'), {
      chainOfNote: false,
      calls: [],
      contextTokens: 100000,
    });
    expect(fits.contextCutFrom).toBeUndefined();
  });
});

describe('scoring through the benchmark protocol', () => {
  it('LoCoMo: F1 and BLEU-1 always, the judge on categories 1–4 only', async () => {
    const scoreAnswer = await registryScorer();
    replies = ['{"label": "CORRECT"}'];
    const judge = provider().forRole('judge');
    const s = await scoreAnswer(
      {
        protocol: 'locomo',
        questionId: 'conv-1:q1',
        nativeType: '4',
        question: 'Where?',
        gold: 'Paris',
        hypothesis: 'Paris',
      },
      judge,
      { calls: [] },
    );
    expect(s).toEqual({ f1: 1, bleu1: 1, judge: { correct: [true], raw: ['{"label": "CORRECT"}'] } });
    const adv = await scoreAnswer(
      {
        protocol: 'locomo',
        questionId: 'conv-1:q2',
        nativeType: '5',
        question: 'Did she?',
        gold: '',
        hypothesis: 'Not mentioned.',
      },
      judge,
      { calls: [] },
    );
    expect(adv).toEqual({ f1: 1, bleu1: 0 });
    expect(server.count('/v1/chat/completions')).toBe(1);
  });

  it('LongMemEval: the official judge only', async () => {
    const scoreAnswer = await registryScorer();
    replies = ['no'];
    const s = await scoreAnswer(
      {
        protocol: 'longmemeval',
        questionId: 'x_abs',
        nativeType: 'multi-session',
        question: 'Q',
        gold: 'never said',
        hypothesis: 'Blue.',
      },
      provider().forRole('judge'),
      { calls: [] },
    );
    expect(s).toEqual({ judge: { correct: [false], raw: ['no'] } });
    expect(bodies[0]?.messages[0]?.content).toContain('unanswerable question');
  });
});

describe('answerQuestion', () => {
  const inst = {
    dataset: 'locomo',
    haystackId: 'conv-1',
    haystack: [],
    query: { id: 'conv-1:q1', text: 'Where?', askedAt: '2023-06-01T10:00:00Z' },
    gold: {
      nativeType: '4',
      type: 'factual' as const,
      isAbstention: false,
      evidenceSessionIds: [],
      evidenceTurnIds: [],
      answer: 'Paris',
    },
  };
  const retrieval: Retrieval = { units: [], noMemory: false, context: 'Ann: I live in Paris.' };

  it('reads, then scores with the dataset protocol', async () => {
    const { answerQuestion } = await import('./answer-question.ts');
    const { QaConfigSchema } = await import('../../core/qa-config.ts');
    replies = ['Paris', '{"label": "CORRECT"}'];
    const calls: CallRecord[] = [];
    const row = await answerQuestion(
      { qa: (await loadBenchmark('locomo')).qa, instance: inst, retrieval },
      provider(),
      QaConfigSchema.parse({}),
      calls,
    );
    expect(row).toEqual({
      answer: 'Paris',
      contextTokens: countTokens('Ann: I live in Paris.'),
      answerTokens: countTokens('Paris'),
      judge: { correct: [true], raw: ['{"label": "CORRECT"}'] },
      f1: 1,
      bleu1: 1,
    });
    expect(calls.map((c) => c.stage)).toEqual(['reader', 'judge']);
  });

  it('turns a reader that stays broken into an error row', async () => {
    const { answerQuestion } = await import('./answer-question.ts');
    const { QaConfigSchema } = await import('../../core/qa-config.ts');
    const failing = await startFakeOpenAiServer({ chat: () => ({ status: 503 }) });
    try {
      const llm = createLlmProvider(
        {
          cache: { mode: 'off', dir },
          maxRetries: 1,
          retryBaseMs: 1,
          roles: { reader: { baseURL: failing.baseURL, model: 'r' } },
        },
        {},
      );
      const calls: CallRecord[] = [];
      const row = await answerQuestion(
        { qa: (await loadBenchmark('locomo')).qa, instance: inst, retrieval },
        llm,
        QaConfigSchema.parse({}),
        calls,
      );
      expect(row.answer).toBeNull();
      expect(row.error).toMatch(/503/);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.error).toMatch(/503/);
      expect(failing.count()).toBe(2);
    } finally {
      await failing.close();
    }
  });
});
