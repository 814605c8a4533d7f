// Answer scoring of BEAM, MemDaily and LoCoMo-Plus against the loopback OpenAI-compatible server: BEAM's rubric judge
// (one call per item, graded scores, event ordering by LLM alignment and Kendall τ-b), MemDaily's multiple choice
// scored exactly with no judge call (Chinese prompt) and free-form judged, LoCoMo-Plus's reader and Cognitive judge.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallRecord } from '../src/core/interfaces.ts';
import type { Instance, Retrieval, ScoredUnit } from '../src/core/types.ts';
import { createLlmProvider } from '../src/llm/provider.ts';
import {
  type ChatRequestBody,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../src/llm/testing/fake-openai-server.ts';
import { answerQuestion } from '../src/eval/qa/answer-question.ts';
import { beamJudgePrompt, parseBeamScore } from './beam/judge.ts';
import { eventOrderingScore, kendallTauB } from './beam/kendall.ts';
import {
  cognitiveJudgePrompt,
  COGNITIVE_JUDGE_TEMPLATE,
  locomoPlusReaderPrompt,
  parseCognitiveScore,
} from './locomo-plus/cognitive.ts';
import { memDailyChoicePrompt, scoreChoice } from './memdaily/choice.ts';
import { BEAM_JUDGE_PROMPT } from './beam/judge-prompt.ts';
import { QaConfigSchema } from '../src/core/qa-config.ts';
import { loadBenchmark } from '../src/run/benchmark-registry.ts';

describe('Kendall τ-b', () => {
  it('by hand: x = 1 2 2 3, y = 1 3 2 2 → 3 concordant, 1 discordant, one tie in each → (3 − 1) / √(5 · 5) = 0.4', () => {
    expect(kendallTauB([1, 2, 2, 3], [1, 3, 2, 2])).toBeCloseTo(0.4, 12);
    expect(kendallTauB([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(kendallTauB([1, 2, 3], [3, 2, 1])).toBe(-1);
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNaN();
  });
  it("BEAM's order score equals scipy.stats.kendalltau(variant='b') on upstream's rank vectors (scipy 1.17.1)", () => {
    expect(eventOrderingScore(['a', 'b', 'c', 'd'], ['b', 'a', 'x', 'd']).tauB).toBeCloseTo(0.19999999999999998, 12);
    expect(eventOrderingScore(['a', 'b', 'c'], ['a', 'y']).tauB).toBeCloseTo(0.18257418583505539, 12);
    expect(eventOrderingScore(['a', 'b', 'c', 'd', 'e'], ['a', 'c', 'b', 'e', 'z', 'w']).tauB).toBeCloseTo(
      0.5855400437691199,
      12,
    );
    const perfect = eventOrderingScore(['a', 'b', 'c'], ['a', 'b', 'c']);
    expect(perfect).toMatchObject({ precision: 1, recall: 1, f1: 1, tauNorm: 1, finalScore: 1 });
    // F1 of a/b/c vs b/a/x: tp 2, fp 1, fn 1 → 2/3; τ over a b c x: ranks (1 2 3 5) vs (2 1 5 3) → C 4, D 2 → 1/3.
    const swapped = eventOrderingScore(['a', 'b', 'c'], ['b', 'a', 'x']);
    expect(swapped.f1).toBeCloseTo(2 / 3, 12);
    expect(swapped.tauB).toBeCloseTo(1 / 3, 12);
    expect(swapped.finalScore).toBeCloseTo(((1 + 1 / 3) / 2) * (2 / 3), 12);
    expect(eventOrderingScore(['a', 'b'], []).finalScore).toBe(0); // upstream: NaN (constant ranking)
  });
});

let server: FakeOpenAiServer;
let dir: string;
let replies: string[] = [];
const bodies: ChatRequestBody[] = [];
beforeAll(async () => {
  server = await startFakeOpenAiServer({
    chat: (body) => {
      bodies.push(body);
      return replies.shift() ?? 'NO';
    },
  });
  dir = await mkdtemp(join(tmpdir(), 'adaptmr-qa-beyond-'));
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
const llm = () =>
  createLlmProvider(
    {
      cache: { mode: 'off', dir },
      retryBaseMs: 1,
      roles: {
        judge: { baseURL: server.baseURL, model: 'judge-m' },
        reader: { baseURL: server.baseURL, model: 'reader-m' },
      },
    },
    {},
  );
const qa = QaConfigSchema.parse({});

const unit = (id: string, text: string, at: string, speaker?: string): ScoredUnit => ({
  unit: { id, sessionId: 's1', turnIds: [id], role: 'user', text, at, ...(speaker ? { speaker } : {}) },
  score: 1,
});
const retrieval = (units: ScoredUnit[]): Retrieval => ({
  units,
  noMemory: false,
  context: units.map((u) => u.unit.text).join('\n'),
});
const base = ({ gold, ...over }: Partial<Omit<Instance, 'gold'>> & { gold: Partial<Instance['gold']> }): Instance => ({
  dataset: 'd',
  query: { id: 'q', text: 'Q?', askedAt: '2024-04-05T07:04:00Z' },
  haystackId: 'h',
  haystack: [],
  ...over,
  gold: {
    nativeType: 'x',
    type: 'factual',
    isAbstention: false,
    evidenceSessionIds: [],
    evidenceTurnIds: [],
    answer: '',
    ...gold,
  },
});

describe('BEAM rubric judge', () => {
  it('its prompt is upstream unified_llm_judge_base_prompt, byte for byte; each placeholder filled once', () => {
    // sha256 of the string literal in BEAM@b2a3ee8 src/prompts.py, evaluated by Python (ast.literal value, 3,882 chars).
    expect(BEAM_JUDGE_PROMPT).toHaveLength(3882);
    expect(createHash('sha256').update(BEAM_JUDGE_PROMPT).digest('hex').slice(0, 16)).toBe('d349c9a8559bed9c');
    expect(BEAM_JUDGE_PROMPT.startsWith('\nYou are an expert evaluator tasked with judging')).toBe(true);
    const p = beamJudgePrompt('When?', 'LLM response should state: March 29', 'It is <llm_response> March 29.');
    expect(p).toContain(
      '- QUESTION (what the user asked): When?\n- RUBRIC CRITERION (what to check): LLM response should state: March 29\n- RESPONSE TO EVALUATE: It is <llm_response> March 29.',
    );
  });
  it('scores: 1, 0.5, 0 from the JSON score; anything else none', () => {
    expect(parseBeamScore('{"score": 1.0, "reason": "ok"}')).toBe(1);
    expect(parseBeamScore('```json\n{"score": 0.5, "reason": "partly"}\n```')).toBe(0.5);
    expect(parseBeamScore('{"score": "0.0"}')).toBe(0);
    expect(parseBeamScore('{"score": 0.7}')).toBeUndefined();
    expect(parseBeamScore('score: 1')).toBeUndefined();
  });
  it('one call per rubric item at temperature 0; accuracy = mean item score; event ordering aligned and ranked', async () => {
    const inst = base({
      query: { id: 'q', text: 'In what order did I bring these up?', askedAt: '2024-05-01T00:00:00Z' },
      gold: {
        nativeType: 'event_ordering',
        rubric: ['Core functionality', 'Error handling', 'Deployment'],
        answer: '',
      },
    });
    // Reader, then one judge call per rubric item, then alignment of the three non-blank response lines L1–L3 to
    // the rubric R1–R3: L1·R1 yes; L2·R2 no, L2·R3 no (L2 unmatched); L3·R2 yes → canon [R1, L2, R2].
    replies = [
      'Deployment first\n\nthen core functionality\nthen error handling',
      '{"score": 1.0, "reason": "x"}',
      '{"score": 0.5}',
      '{"score": 0}',
      'YES',
      'NO',
      'NO',
      'YES',
    ];
    const calls: CallRecord[] = [];
    const row = await answerQuestion(
      { qa: (await loadBenchmark('beam')).qa, instance: inst, retrieval: retrieval([]) },
      llm(),
      qa,
      calls,
    );
    expect(row.error).toBeUndefined();
    expect(row.judge!.scores).toEqual([0.5]); // (1 + 0.5 + 0) / 3
    expect(bodies.slice(1, 4).map((b) => b.temperature)).toEqual([0, 0, 0]);
    expect(
      bodies.slice(1, 4).map((b) => /RUBRIC CRITERION \(what to check\): (.*)\n/.exec(b.messages[0]!.content)![1]),
    ).toEqual(inst.gold.rubric);
    expect(bodies.slice(4).map((b) => b.messages[1]!.content.replace(/\s+/g, ' ').trim())).toEqual([
      'First snippet: Core functionality Second snippet: Deployment first',
      'First snippet: Error handling Second snippet: then core functionality',
      'First snippet: Deployment Second snippet: then core functionality',
      'First snippet: Error handling Second snippet: then error handling',
    ]);
    // P = R = F1 = 2/3; ranks over R1 R2 R3 L2: (1 2 3 5) vs (1 3 5 2) → C 4, D 2 → τ = 1/3, τ_norm = 2/3.
    expect(row.metrics!.kendall_tau_b).toBeCloseTo(1 / 3, 12);
    expect(row.metrics!.event_order).toBeCloseTo(4 / 9, 12);
  });
});

describe('MemDaily multiple choice', () => {
  const query = {
    id: 'q',
    text: '那个来自重庆的人叫什么名字啊？',
    askedAt: '2024-04-05T07:04:00Z',
    choices: { A: '赵雅琪', B: '赵雅婧', C: '赵雅琳', D: '赵雅璇' },
  };
  const units = [
    unit('m2', '我上司的老家是重庆。', '2024-04-02T20:10:00Z'),
    unit('m1', '我的上司叫赵雅琳。', '2024-04-02T09:29:00Z'),
  ];
  it("MemSim's prompt, verbatim, with each memory's time", () => {
    expect(memDailyChoicePrompt(query, retrieval(units))).toBe(
      '[用户消息] \n[0] 我上司的老家是重庆。 (消息时间 2024年04月02日 周二 20:10)\n[1] 我的上司叫赵雅琳。 (消息时间 2024年04月02日 周二 09:29)\n' +
        '[单选题] 那个来自重庆的人叫什么名字啊？ \nA: 赵雅琪\nB: 赵雅婧\nC: 赵雅琳\nD: 赵雅璇\n当前时间是 2024年04月05日 周五 07:04\n' +
        '请根据[用户消息]，给出[单选题]的正确答案。\n只输出答案所对应的选项，不要输出解释或其他任何的内容。\n输出样例: A',
    );
  });
  it('the letter is scored exactly (spaces and newlines removed), with no judge call', async () => {
    expect([scoreChoice(' C\n', 'C'), scoreChoice('C.', 'C'), scoreChoice('选C', 'C'), scoreChoice('c', 'C')]).toEqual([
      1, 0, 0, 0,
    ]);
    replies = [' C '];
    const inst = base({
      query,
      gold: { nativeType: 'conditional', type: 'multi-hop', answer: '赵雅琳', correctChoice: 'C' },
    });
    const row = await answerQuestion(
      { qa: (await loadBenchmark('memdaily')).qa, instance: inst, retrieval: retrieval(units) },
      llm(),
      qa,
      [],
    );
    expect(row).toMatchObject({ answer: ' C ', metrics: { accuracy: 1 }, judge: null });
    expect(bodies).toHaveLength(1); // the reader only
  });
  it('free-form: the question alone, judged by the LongMemEval default prompt', async () => {
    replies = ['她叫赵雅琳。', 'yes'];
    const inst = base({
      query,
      gold: { nativeType: 'conditional', type: 'multi-hop', answer: '赵雅琳', correctChoice: 'C' },
    });
    const row = await answerQuestion(
      { qa: (await loadBenchmark('memdaily')).qa, instance: inst, retrieval: retrieval(units) },
      llm(),
      QaConfigSchema.parse({ reader: { choices: 'free-form' } }),
      [],
    );
    expect(row.judge!.correct).toEqual([true]);
    expect(bodies[0]!.messages.map((m) => m.content).join('\n')).not.toContain('赵雅婧');
    expect(bodies[1]!.messages[0]!.content).toContain('Correct Answer: 赵雅琳');
  });
});

describe('LoCoMo-Plus', () => {
  it('the Cognitive template is filled as str.format fills it, and only a JSON label scores', () => {
    expect(COGNITIVE_JUDGE_TEMPLATE).toContain('{{"label": "correct"|"wrong"');
    const p = cognitiveJudgePrompt('Caroline：I say no {now}.', 'Sounds like {pred}');
    expect(p).toContain('Memory/Evidence:\nCaroline：I say no {now}.\n\nModel Prediction:\nSounds like {pred}\n');
    expect(p).toContain('{"label": "correct"|"wrong", "reason": "<Does the prediction relate to the evidence?>"}');
    expect([
      parseCognitiveScore('{"label": "correct", "reason": "r"}'),
      parseCognitiveScore('{"label": " Wrong "}'),
      parseCognitiveScore('{"label":"partial"}'),
      parseCognitiveScore('incorrect'),
    ]).toEqual([1, 0, 0.5, 0]);
  });
  it('the reader gets upstream input: prefix, instruction, retrieved turns in time order, the trigger last', async () => {
    const haystack = [
      {
        id: 'D1',
        at: '2023-05-01T13:00:00Z',
        turns: [
          {
            id: 'D1:1',
            sessionId: 'D1',
            index: 0,
            role: 'user' as const,
            speaker: 'Caroline',
            text: 'hi',
            at: '2023-05-01T13:00:00Z',
          },
        ],
      },
      {
        id: 'P0',
        at: '2023-06-17T13:00:00Z',
        turns: [
          {
            id: 'P0:1',
            sessionId: 'P0',
            index: 0,
            role: 'user' as const,
            speaker: 'Caroline',
            text: 'I learned to say no.',
            at: '2023-06-17T13:00:00Z',
          },
        ],
      },
    ];
    const r = retrieval([unit('P0:1', 'x', '2023-06-17T13:00:00Z'), unit('D1:1', 'y', '2023-05-01T13:00:00Z')]);
    const prompt = locomoPlusReaderPrompt(
      { id: 'plus:0', text: 'I am overwhelmed.', askedAt: '2023-07-01T13:00:00Z' },
      r,
      haystack,
    );
    expect(
      prompt.startsWith(
        'Below is a conversation between two people: A and B. The conversation takes place over multiple days',
      ),
    ).toBe(true);
    expect(
      prompt.endsWith(
        'Your task: This is a memory-aware dialogue setting. You are continuing or reflecting on a prior conversation. Show that you are aware of the relevant memory or context from the evidence when you respond; your answer should naturally connect to or acknowledge that context.\n\nCaroline said, "hi"\nCaroline said, "I learned to say no."\nCaroline said, "I am overwhelmed."',
      ),
    ).toBe(true);
    replies = ['Maybe say no again?', '{"label": "correct", "reason": "uses the cue"}'];
    const inst = base({
      query: { id: 'plus:0', text: 'I am overwhelmed.', askedAt: '2023-07-01T13:00:00Z' },
      haystack,
      gold: { nativeType: 'causal', reportAs: 'cognitive', evidenceText: 'Caroline：I learned to say no.' },
    });
    const row = await answerQuestion(
      { qa: (await loadBenchmark('locomo-plus')).qa, instance: inst, retrieval: r },
      llm(),
      qa,
      [],
    );
    expect(row.judge).toMatchObject({ correct: [true], scores: [1] });
    expect(bodies[0]).toMatchObject({ temperature: 0.3, max_tokens: 1024 });
    expect(bodies[1]).toMatchObject({ temperature: 0, max_tokens: 512 });
    expect(bodies[1]!.messages[0]!.content).toContain(
      'Memory/Evidence:\nCaroline：I learned to say no.\n\nModel Prediction:\nMaybe say no again?',
    );
  });
});
