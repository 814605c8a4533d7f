// longmemeval-rag: join modes and best-key scoring on hand cases, the time filter's ±2-day widening, the official
// prompts' reply parsing (English and Chinese), and a run against the loopback LLM server (memorised once per
// LoCoMo conversation, rerun makes no calls).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/core/types.ts';
import { createMemoryIndex, createWinkSifEmbedder } from '../../src/index/index.ts';
import {
  startFakeOpenAiServer,
  type ChatRequestBody,
  type FakeOpenAiServer,
} from '../../src/llm/testing/fake-openai-server.ts';
import { factoryContext, runTwice, smallLocomo, stages } from '../testing/loopback.ts';
import { bestPerUnit, joinKeys } from './keys.ts';
import { createLongMemEvalRag, LongMemEvalRagOptionsSchema, longMemEvalRagEntry } from './longmemeval-rag-method.ts';
import { expansionPrompt, parseEventDates, parseExpansion, parseTimeRange, timeRangePrompt } from './prompts.ts';
import { inRangeFirst, sessionsInRange, shiftDay } from './time-filter.ts';

describe('key expansion join modes (resolve_expansion)', () => {
  const values = ['I bought a bike.', 'Weather talk.'];
  it('merge prefixes each expansion item to the value; a failed or empty expansion keeps the value alone', () => {
    expect(joinKeys(values, [['User bought a bike in May.'], undefined], 'merge')).toEqual([
      { text: 'User bought a bike in May. I bought a bike.', unit: 0 },
      { text: 'Weather talk.', unit: 1 },
    ]);
    expect(joinKeys(values, [['a', 'b'], []], 'merge').map((k) => k.text)).toEqual([
      'a I bought a bike.',
      'b I bought a bike.',
      'Weather talk.',
    ]);
  });
  it('separate keeps the value as a key and adds one key per item; replace uses the items alone', () => {
    expect(joinKeys(values, [['f1', 'f2'], ['']], 'separate')).toEqual([
      { text: 'I bought a bike.', unit: 0 },
      { text: 'f1', unit: 0 },
      { text: 'f2', unit: 0 },
      { text: 'Weather talk.', unit: 1 },
    ]);
    expect(joinKeys(values, [['f1'], undefined], 'replace')).toEqual([
      { text: 'f1', unit: 0 },
      { text: '', unit: 1 },
    ]);
  });
  it('a value ranks at its best key', () => {
    const keys = joinKeys(values, [['f1', 'f2'], undefined], 'separate'); // units 0,0,0,1
    expect(Array.from(bestPerUnit(keys, [0.2, 0.9, 0.1, 0.5], 2))).toEqual([0.9, 0.5]);
  });
});

describe('time-aware expansion (temp_query_search_pruning.py)', () => {
  it('widens the range by two days on each side', () => {
    expect(shiftDay('2023-03-01', -2)).toBe('2023-02-27');
    const days = new Map([
      ['a', ['2023-02-27']], // start − 2: in
      ['b', ['2023-02-26']], // start − 3: out
      ['c', ['2023-01-01', '2023-03-12']], // end + 2: in (any event counts)
      ['d', ['2023-03-13']], // end + 3: out
    ]);
    expect([...sessionsInRange(days, { start: '2023-03-01', end: '2023-03-10' })].sort()).toEqual(['a', 'c']);
  });
  it('moves in-range items to the front, each part keeping its order', () => {
    const r = inRangeFirst(['x1', 'y1', 'x2', 'y2'], (s) => s[0]!, new Set(['y']));
    expect(r).toEqual({ ranked: ['y1', 'y2', 'x1', 'x2'], moved: 2 });
  });
});

describe('official prompt replies', () => {
  it('user facts: a JSON list (fenced or not), joined unless split; junk is a failed expansion', () => {
    expect(
      parseExpansion('userfact', '```json\n["The user owns a bike.", "The user lives in Rome."]\n```', false),
    ).toEqual(['The user owns a bike. The user lives in Rome.']);
    expect(parseExpansion('userfact', '["A", "B"]', true)).toEqual(['A', 'B']);
    expect(parseExpansion('userfact', '[]', false)).toEqual([]);
    expect(parseExpansion('userfact', 'There are no facts.', false)).toBeUndefined();
    expect(parseExpansion('userfact', '["用户住在杭州。", "用户养了一只叫雪球的猫。"]', true)).toEqual([
      '用户住在杭州。',
      '用户养了一只叫雪球的猫。',
    ]);
  });
  it('keyphrases split on semicolons (also the full-width one); summaries on sentences', () => {
    expect(parseExpansion('keyphrase', 'bike; Rome ;triathlon', true)).toEqual(['bike', 'Rome', 'triathlon']);
    expect(parseExpansion('keyphrase', '杭州；西湖区；搬家', true)).toEqual(['杭州', '西湖区', '搬家']);
    expect(parseExpansion('summary', 'The user moved. They like cats!', true)).toEqual([
      'The user moved.',
      'They like cats!',
    ]);
    expect(parseExpansion('summary', '用户搬到了杭州。他养了猫。', true)).toEqual(['用户搬到了杭州。', '他养了猫。']);
  });
  it('time range: JSON dates, N/A, and the official "start inside the question date" rule', () => {
    expect(parseTimeRange('{"start": "2023/06/01", "end": "2023/06/30"}', '2023-07-01')).toEqual({
      start: '2023-06-01',
      end: '2023-06-30',
    });
    expect(parseTimeRange('N/A', '2023-07-01')).toBeUndefined();
    expect(parseTimeRange('{"start": "2023/07/01", "end": "2023/07/01"}', '2023-07-01')).toBeUndefined();
    expect(parseTimeRange('```json\n{"start": "2023/06/30", "end": "2023/06/01"}\n```', '2023-07-01')).toEqual({
      start: '2023-06-01',
      end: '2023-06-30',
    });
  });
  it('event dates: valid YYYY/MM/DD dates only', () => {
    expect(
      parseEventDates(
        '[{"date": "2023/05/30", "event": "Got an Instant Pot"}, {"date": "sometime", "event": "x"}, {"event": "y"}]',
      ),
    ).toEqual(['2023-05-30']);
    expect(parseEventDates('[{"date": "2023/05/08", "event": "参加了农贸市场"}]')).toEqual(['2023-05-08']);
    expect(parseEventDates('none')).toBeUndefined();
  });
  it('prompts carry the official wording and the official few-shot examples', () => {
    const p = expansionPrompt('userfact', 'round', '\nuser：我搬到了杭州');
    expect(p.messages[0]!.content).toMatch(/^You will be given a message from a human user/);
    expect(p.messages[1]!.content).toContain('Human user message:\n\nuser：我搬到了杭州');
    const t = timeRangePrompt('2023/07/01 (Sat) 23:13', '上个月我去了哪里？');
    expect(t.messages).toHaveLength(1 + 2 * 10 + 1);
    expect(t.messages.at(-1)!.content).toContain('Question:\n上个月我去了哪里？');
  });
});

describe('longmemeval-rag method', () => {
  it('options: defaults are the recommended setting; the paper preset needs round values', () => {
    const o = LongMemEvalRagOptionsSchema.parse({});
    expect(o).toMatchObject({
      expansion: 'userfact',
      joinMode: 'merge',
      timeAware: true,
      retriever: 'embedding',
      llmRole: 'strategy',
      mode: 'auto',
    });
    const turn = factoryContext({ granularity: 'turn', roles: ['user', 'assistant'], includeCaptions: true });
    expect(() => createLongMemEvalRag(LongMemEvalRagOptionsSchema.parse({ preset: 'paper' }), turn)).toThrow(
      /granularity: round/,
    );
    expect(createLongMemEvalRag(o, { ...turn, llmRoles: [] }).capabilities).toEqual({
      output: 'units',
      memorises: true,
      degraded: 'offline',
    });
    expect(createLongMemEvalRag(o, turn).capabilities).toEqual({
      output: 'units',
      memorises: true,
      llmRoles: ['strategy'],
    });
    expect(longMemEvalRagEntry.optionsSchema.safeParse({ joinMode: 'concat' }).success).toBe(false);
  });

  it('offline, a Chinese time expression moves the sessions of that month to the front', async () => {
    const mk = (id: string, at: string, text: string): Session => ({
      id,
      at,
      turns: [{ id: `${id}#1`, sessionId: id, index: 0, role: 'user', text, at }],
    });
    const haystack = [
      mk('s1', '2023-03-05T10:00:00Z', '我搬到了杭州西湖区。'),
      mk('s2', '2023-05-06T10:00:00Z', '我开始跑步了。'),
      mk('s3', '2023-05-20T10:00:00Z', '我搬家了，很累。'),
    ];
    const spec = { granularity: 'session' as const, roles: ['user' as const], includeCaptions: false };
    const index = createMemoryIndex(haystack, spec, createWinkSifEmbedder());
    const m = createLongMemEvalRag(LongMemEvalRagOptionsSchema.parse({ retriever: 'bm25' }), factoryContext(spec, []));
    const out = await m.run({ id: 'q', text: '三月我搬到了哪里？', askedAt: '2023-06-01T00:00:00Z' }, index, {
      seed: 1,
      calls: [],
    });
    expect(out.retrieval.notes).toMatchObject({ timeRange: { start: '2023-03-01', end: '2023-03-31' }, inRange: 1 });
    expect(out.retrieval.units[0]!.unit.id).toBe('s1');
    expect(out.retrieval.context).toContain('2023/03/05');
  });
});

describe('longmemeval-rag against the loopback LLM server', () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer({
      chat: (body: ChatRequestBody) => {
        const prompt = body.messages.map((m) => m.content).join('\n');
        if (prompt.includes('Relevant Date Range')) return { text: 'N/A' };
        if (prompt.includes('Personal facts about the user with dates'))
          return { text: '[{"date": "2023/05/08", "event": "went hiking"}]' };
        if (prompt.includes('Personal facts about the user')) return { text: '["The user went to a support group."]' };
        return { text: 'unexpected prompt' };
      },
    });
  });
  afterAll(async () => server.close());

  it('memorises once per LoCoMo conversation and a rerun makes no calls', async () => {
    const { haystack, queries } = await smallLocomo(2);
    const r = await runTwice(
      server,
      () =>
        createLongMemEvalRag(
          LongMemEvalRagOptionsSchema.parse({}),
          factoryContext({
            granularity: 'turn',
            roles: ['user', 'assistant'],
            includeCaptions: true,
            speakerPrefix: true,
          }),
        ),
      haystack,
      queries,
    );
    const [q1, q2] = r.firstRun as [(typeof r.firstRun)[0], (typeof r.firstRun)[0]];
    expect(stages(q1, 'index:userfact')).toBe(r.unitCount);
    expect(stages(q1, 'index:events')).toBe(r.sessionCount);
    expect(stages(q2, 'index:')).toBe(0);
    expect(stages(q1, 'query:time-range')).toBe(1);
    expect(stages(q2, 'query:time-range')).toBe(1);
    expect(r.firstRequests).toBe(r.unitCount + r.sessionCount + 2);
    expect(r.rerunRequests).toBe(0);
  });
});
