// BEAM loader: a small chat written here exercises every defect the docs/datasets.md lists (null batch anchors, plan
// markers in user and echoed assistant text, nested / dict / empty / missing / repeated / dangling evidence, an
// answer contradicting its rubric); the real tiers (through ADAPTMR_DATA_DIR) must give the README's counts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.ts';
import { answerContradictsRubric, statedDurations } from './durations.ts';
import { buildUnits } from '../../src/index/units.ts';
import { evaluateRetrieval } from '../../src/eval/retrieval-metrics.ts';
import {
  loadDataset,
  readCatalog,
  readInstances,
  resolveDataset,
  summarize,
  type DataIssue,
} from '../../src/data/index.ts';
import { TEST_DATA_DIR } from '../../test/data-path.ts';

const root = mkdtempSync(join(tmpdir(), 'adaptmr-beam-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const msg = (role: 'user' | 'assistant', id: number, content: string, extra: Record<string, unknown> = {}) => ({
  role,
  id,
  content,
  ...extra,
});
const chat = [
  {
    batch_number: 1,
    time_anchor: null,
    turns: [
      [
        msg('user', 0, 'I start the budget app on March 29. ->-> 1,1', {
          time_anchor: 'March-15-2024',
          index: '1,1',
          question_type: 'main_question',
        }),
        msg('assistant', 1, 'Noted. ->-> 1,1'),
      ],
      [
        msg('user', 2, 'My sprint is two weeks long. ->-> 1,(N/A, commentary)', { question_type: 'followup_question' }),
        msg('assistant', 3, 'Two weeks it is.'),
      ],
    ],
  },
  {
    batch_number: 2,
    time_anchor: null,
    turns: [
      [
        msg('user', 4, 'The deadline moved to May 3.', { time_anchor: 'May-01-2024', index: '2,1' }),
        msg('assistant', 5, 'Updated.'),
      ],
    ],
  },
];
const q = (question: string, rubric: string[], extra: Record<string, unknown> = {}) => ({
  question,
  difficulty: 'easy',
  rubric,
  ...extra,
});
const questions = {
  abstention: [q('What did I name my cat?', ['Based on the provided chat, there is no information'])],
  contradiction_resolution: [
    q('Did I use Flask?', ['state: contradictory'], {
      source_chat_ids: { first_statement: [2], second_statement: [2] },
    }),
  ],
  event_ordering: [
    q('Order?', ['Start', 'Sprint', 'Deadline'], { source_chat_ids: [[0, 1], [2], 4], total_mentions: 4 }),
  ],
  information_extraction: [
    q('When do I start?', ['LLM response should state: March 29'], { source_chat_ids: [0, 0, 99] }),
  ],
  instruction_following: [q('Show code', ['contains code'], { source_chat_ids: [] })],
  knowledge_update: [
    q('Deadline?', ['state: May 3'], { source_chat_ids: { original_info: [0], updated_info: [4] } }),
    q('Old?', ['state: x'], { source_chat_ids: { original_info: [0], updated_info: [] } }),
    q('Missing?', ['state: y']),
  ],
  multi_session_reasoning: [q('How many?', ['state: 2'], { source_chat_ids: [0, 4] })],
  preference_following: [q('Suggest a library', ['lightweight'], { source_chat_ids: [2] })],
  summarization: [q('Summarise', ['budget app'], { source_chat_ids: [1, 3, 5] })],
  temporal_reasoning: [
    q('How long?', ['LLM response should state: 8 weeks'], {
      answer: 'I have exactly 4 weeks.',
      source_chat_ids: { first_event: [0], second_event: [4] },
    }),
  ],
};

function writeTier(name: string, files: { chat: unknown; questions: unknown }): string {
  const tier = join(root, name);
  mkdirSync(join(tier, '3', 'probing_questions'), { recursive: true });
  writeFileSync(join(tier, '3', 'chat.json'), JSON.stringify(files.chat));
  writeFileSync(join(tier, '3', 'probing_questions', 'probing_questions.json'), JSON.stringify(files.questions));
  return tier;
}

async function load(tier: string) {
  const issues: DataIssue[] = [];
  const instances = [];
  for await (const i of readInstances(resolveDataset({ format: 'beam', path: tier, name: 'beam-fixture' }, root), {
    issues,
  }))
    instances.push(i);
  return { instances, issues };
}

describe('BEAM loader (fixture)', () => {
  const tier = writeTier('100K', { chat, questions });

  it('batches are sessions dated by their first message; messages are turns m<id>; markers cut', async () => {
    const { instances, issues } = await load(tier);
    const h = instances[0]!.haystack;
    expect(h.map((s) => [s.id, s.at])).toEqual([
      ['b1', '2024-03-15T00:00:00Z'],
      ['b2', '2024-05-01T00:00:00Z'],
    ]);
    expect(h.flatMap((s) => s.turns.map((t) => t.id))).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    expect(h[0]!.turns.map((t) => t.text)).toEqual([
      'I start the budget app on March 29.',
      'Noted.',
      'My sprint is two weeks long.',
      'Two weeks it is.',
    ]);
    expect(instances.every((i) => i.query.askedAt === '2024-05-01T00:00:00Z' && i.haystack === h)).toBe(true);
    const problems = issues.map((i) => i.problem).join('\n');
    expect(problems).toContain('batch time_anchor is null in 2 of 2 batches');
    expect(problems).toContain('2 user and 1 assistant messages end with a "->-> <batch>,<bullet>" plan marker');
  });

  it('ids, types and the rubric as gold; abilities outside the five are marked', async () => {
    const { instances } = await load(tier);
    const byAbility = new Map(instances.map((i) => [`${i.gold.nativeType}:${i.query.text}`, i]));
    expect(instances.map((i) => i.query.id)).toEqual(Array.from({ length: 12 }, (_, n) => `100K-3:q${n}`));
    expect(byAbility.get('abstention:What did I name my cat?')!.gold).toMatchObject({
      type: 'abstention',
      isAbstention: true,
      evidenceTurnIds: [],
    });
    expect(byAbility.get('event_ordering:Order?')!.gold).toMatchObject({
      type: 'temporal',
      evidenceTurnIds: ['m0', 'm1', 'm2', 'm4'],
      evidenceSessionIds: ['b1', 'b2'],
      rubric: ['Start', 'Sprint', 'Deadline'],
    });
    expect(byAbility.get('knowledge_update:Deadline?')!.gold.evidenceTurnIds).toEqual(['m4']);
    expect(byAbility.get('temporal_reasoning:How long?')!.gold.answer).toBe('LLM response should state: 8 weeks');
    for (const a of ['preference_following', 'instruction_following', 'summarization']) {
      expect(instances.find((i) => i.gold.nativeType === a)!.gold.reportAs).toBe('outside');
    }
    expect(instances.find((i) => i.gold.nativeType === 'information_extraction')!.gold.reportAs).toBeUndefined();
  });

  it('every evidence defect is handled and reported', async () => {
    const { issues } = await load(tier);
    const of = (id: string) => issues.filter((i) => i.questionId === id).map((i) => `${i.action}: ${i.problem}`);
    expect(of('100K-3:q1')).toEqual(['repaired: 1 repeated ids removed']); // contradiction, the same message on both sides
    expect(of('100K-3:q2').sort()).toEqual([
      'kept: total_mentions 4 ≠ 3 rubric items; the rubric is the order gold',
      'repaired: nested id lists flattened',
    ]);
    expect(of('100K-3:q3')).toEqual(['repaired: 1 repeated ids removed', 'dropped: id 99 names no message of chat 3']);
    expect(of('100K-3:q4')).toEqual(['kept: empty (left out of retrieval recall)']);
    expect(of('100K-3:q6')).toEqual([
      'kept: updated_info is empty (the new value has no evidence id); left out of retrieval recall',
    ]);
    expect(of('100K-3:q7')).toEqual(['kept: no source_chat_ids (left out of retrieval recall)']);
    expect(of('100K-3:q11')).toEqual([
      expect.stringMatching(/^kept: answer "I have exactly 4 weeks\." states another duration than the rubric/),
    ]);
  });

  it('the catalog reads the probing questions only and names the chat folder', async () => {
    const entries = await readCatalog(resolveDataset({ format: 'beam', path: tier }, root));
    expect(entries).toHaveLength(12);
    expect(new Set(entries.map((e) => e.file))).toEqual(new Set([join(tier, '3')]));
    expect(entries.filter((e) => e.reportAs === 'outside').map((e) => e.nativeType)).toEqual([
      'instruction_following',
      'preference_following',
      'summarization',
    ]);
  });

  it('an unknown ability or a malformed message is one InputError naming the file', async () => {
    const bad = writeTier('bad-ability', { chat, questions: { ...questions, telepathy: [] } });
    await expect(load(bad)).rejects.toThrow(
      /unknown ability "telepathy".*probing_questions\.json|probing_questions\.json.*unknown ability "telepathy"/s,
    );
    const badChat = writeTier('bad-chat', {
      chat: [{ batch_number: 1, turns: [[{ role: 'robot', id: 0, content: 'x' }]] }],
      questions,
    });
    const err = await load(badChat).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/chat\.json.*role|role.*chat\.json/s);
  });
});

describe('BEAM units at the three levels (messages, turn pairs, batches)', () => {
  it('turn / round / session granularity give messages, user+reply pairs and batches; metrics at turn and session level', async () => {
    const tier = join(root, '100K');
    const { instances } = await load(tier);
    const inst = instances.find((i) => i.gold.nativeType === 'multi_session_reasoning')!; // evidence m0 (batch 1), m4 (batch 2)
    const spec = (granularity: 'turn' | 'round' | 'session') => ({
      granularity,
      roles: ['user', 'assistant'] as ('user' | 'assistant')[],
      includeCaptions: true,
      speakerPrefix: false,
      keepEmpty: false,
    });
    expect(buildUnits(inst.haystack, spec('turn')).map((u) => u.turnIds)).toEqual([
      ['m0'],
      ['m1'],
      ['m2'],
      ['m3'],
      ['m4'],
      ['m5'],
    ]);
    expect(buildUnits(inst.haystack, spec('round')).map((u) => [u.id, u.turnIds])).toEqual([
      ['b1#r1', ['m0', 'm1']],
      ['b1#r2', ['m2', 'm3']],
      ['b2#r1', ['m4', 'm5']],
    ]);
    expect(buildUnits(inst.haystack, spec('session')).map((u) => [u.id, u.turnIds.length])).toEqual([
      ['b1', 4],
      ['b2', 2],
    ]);
    // A ranking that holds the first pair only: recall_any@1 = 1, recall_all@1 = 0 at turn level (pairs) and session level.
    const rounds = buildUnits(inst.haystack, spec('round'));
    const r = evaluateRetrieval({
      ranked: [rounds[0]!],
      indexed: rounds,
      granularity: 'round',
      gold: inst.gold,
      ks: [1],
    });
    expect(r.rows.map((x) => `${x.level} ${x.metric}@${x.k}=${x.value}`).filter((x) => x.includes('recall'))).toEqual([
      'turn recall_any@1=1',
      'turn recall_all@1=0',
      'turn recall_frac@1=0.5', // one of the two gold messages
      'session recall_any@1=1',
      'session recall_all@1=0',
      'session recall_frac@1=0.5', // one of the two gold batches
    ]);
  });
});

describe('duration check of answers against rubrics', () => {
  it('reads numerals, number words, units and "same day"', () => {
    expect(statedDurations('One day passed; then 3 months, then 2 weeks')).toEqual([1, 90, 14]);
    expect(statedDurations('on the same day as the shoot')).toEqual([0]);
    expect(answerContradictsRubric('exactly 4 weeks', ['state: 8 weeks'])).toBe(true);
    expect(answerContradictsRubric('for 3 months before', ['state: 90 days'])).toBe(false);
    expect(answerContradictsRubric('asked on the same day', ['mention: 0 days'])).toBe(false);
    expect(answerContradictsRubric('no durations here', ['state: 8 weeks'])).toBe(false);
  });
});

const dataDir = TEST_DATA_DIR;

describe('BEAM tiers (docs/datasets.md §4.1 counts)', () => {
  it('100K: 20 chats, 90 batches, 5,732 messages, 400 questions, 40 per ability; 500K: 35 chats, 350, 38,058, 700, 70', async () => {
    for (const [name, q, sessions, turns, per] of [
      ['beam-100k', 400, 90, 5732, 40],
      ['beam-500k', 700, 350, 38058, 70],
    ] as const) {
      const { instances, issues } = await loadDataset({ name }, dataDir);
      const info = summarize(name, instances);
      expect({ questions: info.questions, sessions: info.sessions, turns: info.turns }).toEqual({
        questions: q,
        sessions,
        turns,
      });
      expect(Object.values(info.byNativeType)).toEqual(Array.from({ length: 10 }, () => per));
      expect(info.byAdaptType).toEqual({
        abstention: per,
        factual: per,
        'multi-hop': per,
        outside: 3 * per,
        temporal: 2 * per,
        update: 2 * per,
      });
      // The README's four temporal answers that contradict their rubric, found by the duration check and no other.
      const contradicted = issues
        .filter((i) => i.field.endsWith('.answer'))
        .map(
          (i) => `${i.field.replace(/^.*?(temporal_reasoning\[\d\]).*$/, '$1')} ${i.file.split('/').slice(-3, -2)[0]}`,
        );
      expect(contradicted.sort()).toEqual(
        name === 'beam-100k'
          ? ['temporal_reasoning[0] 1', 'temporal_reasoning[0] 14']
          : ['temporal_reasoning[0] 22', 'temporal_reasoning[1] 16'],
      );
    }
  }, 60_000);
});
